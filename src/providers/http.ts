import axios, { AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { session as appSession, type Session, type SessionUser } from './session';

/** The server's error envelope. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string>; lessons?: unknown };
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
  if (error instanceof AxiosError) {
    const status = error.response?.status ?? 0;
    const body = error.response?.data as ApiErrorBody | undefined;
    const code = body?.error?.code ?? (status === 0 ? 'network' : 'internal');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(error.response?.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    return new ApiError(status, code, body?.error?.message ?? error.message, body?.error?.fields ?? {}, body, headers);
  }
  return new ApiError(0, 'internal', error instanceof Error ? error.message : String(error), {}, undefined, {});
}

/** The lock-manager subset we use (Web Locks API); tests may pass their own or none. */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface HttpOptions {
  baseURL?: string;
  session?: Session;
  /** Where to go when the session ends; defaults to a full page load of /login. */
  navigate?: (path: string) => void;
  locks?: Locks | null;
  /** The tenant slug; defaults to the first label of location.hostname. */
  tenant?: () => string;
}

export interface HttpClient {
  http: AxiosInstance;
  /** Replaces where the client navigates when the session ends (the router registers itself). */
  setNavigate(navigate: (path: string) => void): void;
}

interface RetryConfig extends InternalAxiosRequestConfig {
  /** The stored access expiry when the request started. */
  _startedExp?: number;
  _retried?: boolean;
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

  const http = axios.create({ baseURL: options.baseURL ?? '', withCredentials: true, timeout: 0 });

  http.interceptors.request.use((config: RetryConfig) => {
    config.headers.set('x-client-type', 'web');
    config.headers.set('x-tenant-id', tenant());
    if (!config._retried) config._startedExp = session.exp();
    return config;
  });

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

  http.interceptors.response.use(undefined, async (error: unknown) => {
    if (!(error instanceof AxiosError) || !error.config) throw toApiError(error);
    const config = error.config as RetryConfig;
    const status = error.response?.status;
    const apiError = toApiError(error);
    if (NO_REFRESH.includes(pathOf(config.url))) throw apiError;

    if (status === 401) {
      if (config._retried) {
        endSession();
        apiError.sessionCleared = true;
        throw apiError;
      }
      try {
        await refresh(config._startedExp);
      } catch {
        apiError.sessionCleared = true;
        throw apiError;
      }
      config._retried = true;
      return http.request(config);
    }
    if (status === 403 && apiError.code !== 'forbidden') {
      // tenant-mismatch, session-revoked: this session can't be used here any more
      endSession();
      apiError.sessionCleared = true;
    }
    throw apiError;
  });

  return {
    http,
    setNavigate(next) {
      navigate = next;
    },
  };
}

const client = createHttpClient();

/** The app's one HTTP client: same origin, cookies, web headers, shared refresh. */
export const http = client.http;
export const setSessionNavigate = client.setNavigate;
