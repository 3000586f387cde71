import type { ErrorDetails } from '../../domain/errors';
import { outageDelay, reportOutage, reportReachable, sleep } from './connectivity';
import { session as appSession, type Session, type SessionUser } from './session';

/** The server's one error body (domain/errors.ts): every extra is inside `details`. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string>; details?: ErrorDetails };
}

/**
 * What every failed call rejects with: the HTTP status, the server's error code and field
 * codes, and whether this failure ended the session (authProvider.onError logs out only then).
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  sessionCleared = false;

  constructor(status: number, code: string, message: string, fields: Record<string, string>, body: unknown, headers: Record<string, string>) {
    super(message || code);
    this.name = 'ApiError';
    this.statusCode = status;
    this.code = code;
    this.fields = fields;
    this.body = body;
    this.headers = headers;
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'internal', error instanceof Error ? error.message : String(error), {}, undefined, {});
}

/** Query parameters of a call. */
export type Params = Record<string, unknown>;

interface RequestConfig {
  /** Appended to the URL in their order (an array as `key[]=a&key[]=b`), null and undefined left out. */
  params?: Params;
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** `blob` for file contents; otherwise JSON (a body that is not JSON stays text). */
  responseType?: 'json' | 'blob';
  /** A body for DELETE. */
  data?: unknown;
  /** Sends the request some other way (uploads that report progress, ./upload-progress). */
  transport?: Transport;
}

interface HttpResponse<T> {
  data: T;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
}

/** One request, ready to go: absolute or same-origin URL, every header, the encoded body. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  signal: AbortSignal | undefined;
  responseType: 'json' | 'blob';
}

/** The answer as received; `body` is text, or a Blob for a successful `blob` request. */
interface TransportAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Blob;
}

/** Sends a request; rejects only when no answer came (network failure, aborted). */
export type Transport = (request: TransportRequest) => Promise<TransportAnswer>;

const fetchTransport: Transport = async ({ method, url, headers, body, signal, responseType }) => {
  const res = await fetch(url, { method, headers, body, signal, credentials: 'include' });
  const answerHeaders: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    answerHeaders[name] = value;
  });
  return { status: res.status, headers: answerHeaders, body: responseType === 'blob' && res.ok ? await res.blob() : await res.text() };
};

interface Http {
  request<T = unknown>(method: string, url: string, body?: unknown, config?: RequestConfig): Promise<HttpResponse<T>>;
  get<T = unknown>(url: string, config?: RequestConfig): Promise<HttpResponse<T>>;
  delete<T = unknown>(url: string, config?: RequestConfig): Promise<HttpResponse<T>>;
  post<T = unknown>(url: string, body?: unknown, config?: RequestConfig): Promise<HttpResponse<T>>;
  put<T = unknown>(url: string, body?: unknown, config?: RequestConfig): Promise<HttpResponse<T>>;
  patch<T = unknown>(url: string, body?: unknown, config?: RequestConfig): Promise<HttpResponse<T>>;
}

/** `encodeURIComponent`, keeping `:`, `$` and `,` as they are and a space as `+`. */
const encodeParam = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%20/g, '+');

/** `url` with `params` appended: each value as text (a date in ISO form), an array's items as `key[]`. */
function withParams(url: string, params: Params | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    const name = Array.isArray(value) ? `${key}[]` : key;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || item === undefined) continue;
      parts.push(`${encodeParam(name)}=${encodeParam(item instanceof Date ? item.toISOString() : String(item))}`);
    }
  }
  if (!parts.length) return url;
  const bare = url.split('#')[0]!;
  return `${bare}${bare.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

const isRawBody = (body: unknown) =>
  typeof body === 'string' ||
  (typeof FormData !== 'undefined' && body instanceof FormData) ||
  (typeof Blob !== 'undefined' && body instanceof Blob) ||
  (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
  body instanceof ArrayBuffer;

/** A JSON answer parsed; anything else (an empty body, plain text) as it came. */
function parsed(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The lock-manager subset we use (Web Locks API); tests may pass their own or none. */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

interface HttpOptions {
  baseURL?: string;
  session?: Session;
  /** Where to go when the session ends; defaults to a full page load of /login. */
  navigate?: (path: string) => void;
  locks?: Locks | null;
  /** The tenant slug; defaults to the first label of location.hostname. */
  tenant?: () => string;
  /** Waits before a call refused as busy is sent again (tests record the pauses); a timer by default. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Told when the server is unreachable (no answer, 502, 503, 504) and when it answers again;
   * with it, a read that finds the server unreachable waits `outage.pause(tries)` and goes
   * again until it gets an answer (the screen keeps what it shows meanwhile).
   */
  outage?: OutageWatch;
}

export interface OutageWatch {
  down(): void;
  up(): void;
  pause(tries: number, signal?: AbortSignal): Promise<void>;
}

/** Statuses that mean "the server (or what stands before it) is not there now". */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** A 503 with Retry-After is tried again at most this many times… */
export const BUSY_RETRIES = 2;
/** …after the pause the server asks for, capped, plus up to this much at random so refused clients do not all come back at once. */
export const BUSY_WAIT_MAX_MS = 10_000;
export const BUSY_JITTER_MS = 250;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The pause before a refused call goes again, or undefined when it must not: only a 503 that
 * names a Retry-After; a read always, a write only when the server says it refused before
 * doing anything (reason `overloaded`: server/plugins/overload.ts answers before any hook or
 * handler ran; reason `draining`: a stopping process, server/plugins/drain.ts, refuses whatever
 * arrives once it has begun to drain, and the next try reaches another one). Any other 503 of a write (the database lost mid-request) may have been
 * committed, so it goes to the caller.
 */
function busyPause(method: string, status: number, headers: Record<string, string>, body: ApiErrorBody | undefined, random = Math.random): number | undefined {
  if (status !== 503) return undefined;
  const seconds = Number(headers['retry-after']);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  const reason = (body?.error as { details?: { reason?: string } } | undefined)?.details?.reason;
  const refusedBeforeWork = reason === 'overloaded' || reason === 'draining';
  if (!SAFE_METHODS.has(method.toUpperCase()) && !refusedBeforeWork) return undefined;
  return Math.min(seconds * 1000, BUSY_WAIT_MAX_MS) + Math.floor(random() * BUSY_JITTER_MS);
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** At most this many writes of unknown outcome are remembered (each a request's text). */
const UNANSWERED_MAX = 50;

/** A fresh Idempotency-Key: 128 random bits in hex (crypto.randomUUID needs a secure context). */
function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A failed write that may have been done (no answer, a server or proxy error, still in progress): sent again, it takes the same key. */
function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.statusCode === 0 || error.statusCode >= 500 || error.code === 'in-progress';
}

/** How long a write answered 409 `in-progress` (its first try still running) waits before it asks again, under the same key. */
const IN_PROGRESS_WAIT_MS = 1000;

function inProgressPause(status: number, body: ApiErrorBody | undefined, random = Math.random): number | undefined {
  if (status !== 409 || body?.error?.code !== 'in-progress') return undefined;
  return IN_PROGRESS_WAIT_MS + Math.floor(random() * BUSY_JITTER_MS);
}

const timerWait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

interface HttpClient {
  http: Http;
  /** Replaces where the client navigates when the session ends (the router registers itself). */
  setNavigate(navigate: (path: string) => void): void;
}

const NO_REFRESH = ['/login', '/refresh-token'];

function pathOf(url: string | undefined): string {
  if (!url) return '';
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url;
  }
}

/** `url` under `base`, unless it is absolute already. */
function joinURL(base: string, url: string): string {
  if (!base || /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url)) return url;
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

export function hostTenant(): string {
  const host = typeof location !== 'undefined' ? location.hostname : '';
  return host.split('.')[0] ?? '';
}

function browserLocks(): Locks | null {
  const nav = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: Locks }) : undefined;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

function browserNavigate(path: string) {
  if (typeof location !== 'undefined' && location.pathname !== path) location.assign(path);
}

export function createHttpClient(options: HttpOptions = {}): HttpClient {
  const session = options.session ?? appSession;
  const tenant = options.tenant ?? hostTenant;
  const locks = options.locks === undefined ? browserLocks() : options.locks;
  let navigate = options.navigate ?? browserNavigate;
  // One refresh at a time for this page; every 401 arriving meanwhile waits for it.
  let refreshing: Promise<void> | null = null;
  const baseURL = options.baseURL ?? '';
  const wait = options.wait ?? timerWait;

  const endSession = () => {
    session.reset();
    navigate('/login');
  };

  const refresh = (startedExp: number | undefined): Promise<void> => {
    refreshing ??= (async () => {
      const renew = async () => {
        // Another tab may have refreshed while we waited for the lock: its new expiry is in
        // storage, and presenting our (now used) refresh cookie again would revoke the family.
        const stored = session.exp();
        if (stored !== undefined && stored !== startedExp) return;
        const { data } = await http.post<{ user: SessionUser; token: string; exp: number }>('/refresh-token', {});
        session.set(data.user, data.token, data.exp);
      };
      try {
        if (locks) await locks.request('frontis-refresh', renew);
        else await renew();
      } catch (error) {
        endSession();
        throw error;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  /** One attempt; `startedExp` is the stored access expiry when the call was first made. */
  const attempt = async <T>(
    method: string,
    url: string,
    body: unknown,
    config: RequestConfig,
    startedExp: number | undefined,
    retried: boolean,
    busyTries = 0,
    outageTries = 0,
  ): Promise<HttpResponse<T>> => {
    const outage = options.outage;
    const safe = SAFE_METHODS.has(method.toUpperCase());
    /** A read waits out an outage and goes again; a write goes to the caller. */
    const waitOut = async (): Promise<boolean> => {
      if (!outage || config.signal?.aborted) return false;
      outage.down();
      if (!safe) return false;
      await outage.pause(outageTries, config.signal);
      return !config.signal?.aborted;
    };
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    const raw = body === undefined || isRawBody(body);
    if (!raw) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(config.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
    headers['x-client-type'] = 'web';
    headers['x-tenant-id'] = tenant();
    const responseType = config.responseType ?? 'json';
    let answer: TransportAnswer;
    try {
      answer = await (config.transport ?? fetchTransport)({
        method: method.toUpperCase(),
        url: withParams(joinURL(baseURL, url), config.params),
        headers,
        body: raw ? (body as BodyInit | undefined) : JSON.stringify(body),
        signal: config.signal,
        responseType,
      });
    } catch (error) {
      // no answer: the network failed or the call was cancelled
      if (await waitOut()) return attempt<T>(method, url, body, config, startedExp, retried, busyTries, outageTries + 1);
      throw new ApiError(0, 'network', config.signal?.aborted ? 'canceled' : error instanceof Error ? error.message : 'Network Error', {}, undefined, {});
    }
    const { status } = answer;
    if (!OUTAGE_STATUSES.has(status)) outage?.up();
    if (status >= 200 && status < 300) {
      const data =
        responseType === 'blob' && answer.body instanceof Blob ? answer.body : parsed(typeof answer.body === 'string' ? answer.body : await answer.body.text());
      return { data: data as T, status, headers: answer.headers };
    }
    const data = parsed(typeof answer.body === 'string' ? answer.body : await answer.body.text());
    const envelope = (typeof data === 'object' && data !== null ? data : undefined) as ApiErrorBody | undefined;
    const apiError = new ApiError(
      status,
      envelope?.error?.code ?? (outage && OUTAGE_STATUSES.has(status) ? 'network' : 'internal'),
      envelope?.error?.message ?? `Request failed with status code ${status}`,
      envelope?.error?.fields ?? {},
      data,
      answer.headers,
    );
    const pause = busyTries < BUSY_RETRIES ? (busyPause(method, status, answer.headers, envelope) ?? inProgressPause(status, envelope)) : undefined;
    if (pause !== undefined && !config.signal?.aborted) {
      await wait(pause, config.signal);
      if (!config.signal?.aborted) return attempt<T>(method, url, body, config, startedExp, retried, busyTries + 1);
    }
    if (OUTAGE_STATUSES.has(status) && (await waitOut())) return attempt<T>(method, url, body, config, startedExp, retried, busyTries, outageTries + 1);
    if (NO_REFRESH.includes(pathOf(url))) throw apiError;

    if (status === 401) {
      if (retried) {
        endSession();
        apiError.sessionCleared = true;
        throw apiError;
      }
      try {
        await refresh(startedExp);
      } catch {
        apiError.sessionCleared = true;
        throw apiError;
      }
      return attempt<T>(method, url, body, config, startedExp, true);
    }
    if (status === 403 && apiError.code !== 'forbidden') {
      // tenant-mismatch, session-revoked: this session can't be used here any more
      endSession();
      apiError.sessionCleared = true;
    }
    throw apiError;
  };

  /** Writes whose outcome is unknown (no answer, 5xx, in-progress), by what they sent: their key, for the same write sent again. */
  const unanswered = new Map<string, string>();

  /**
   * Exactly once (docs/rules.md): every write carries an Idempotency-Key, the same one on every
   * try of this call (the shared refresh, a busy server's pause), and on the same write sent again
   * (the user saves again) while the last one's outcome is unknown; so the server does it once.
   */
  const request = async <T>(method: string, url: string, body?: unknown, config: RequestConfig = {}) => {
    const upper = method.toUpperCase();
    const named = Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === IDEMPOTENCY_HEADER);
    if (SAFE_METHODS.has(upper) || NO_REFRESH.includes(pathOf(url)) || named) return attempt<T>(method, url, body, config, session.exp(), false);
    const sent =
      body === undefined || !isRawBody(body) || typeof body === 'string'
        ? `${upper} ${withParams(url, config.params)} ${body === undefined ? '' : JSON.stringify(body)}`
        : undefined;
    const key = (sent && unanswered.get(sent)) || newIdempotencyKey();
    if (sent) {
      if (unanswered.size >= UNANSWERED_MAX) unanswered.clear();
      unanswered.set(sent, key);
    }
    try {
      const answer = await attempt<T>(method, url, body, { ...config, headers: { ...config.headers, [IDEMPOTENCY_HEADER]: key } }, session.exp(), false);
      if (sent) unanswered.delete(sent);
      return answer;
    } catch (error) {
      if (sent && !outcomeUnknown(error)) unanswered.delete(sent);
      throw error;
    }
  };

  const http: Http = {
    request,
    get: <T>(url: string, config?: RequestConfig) => request<T>('get', url, undefined, config),
    delete: <T>(url: string, config?: RequestConfig) => request<T>('delete', url, config?.data, config),
    post: <T>(url: string, body?: unknown, config?: RequestConfig) => request<T>('post', url, body, config),
    put: <T>(url: string, body?: unknown, config?: RequestConfig) => request<T>('put', url, body, config),
    patch: <T>(url: string, body?: unknown, config?: RequestConfig) => request<T>('patch', url, body, config),
  };

  return {
    http,
    setNavigate(next) {
      navigate = next;
    },
  };
}

const client = createHttpClient({
  outage: { down: reportOutage, up: reportReachable, pause: (tries, signal) => sleep(outageDelay(tries), signal) },
});

/** The app's one HTTP client: same origin, cookies, web headers, shared refresh. */
export const http = client.http;
export const setSessionNavigate = client.setNavigate;
