// The client's constants the spec names, read from the modules the app uses: the toasts, the
// data fetching, the HTTP client's (absent) timeout, error reporting, and two texts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHttpClient, type TransportRequest } from '../../src/providers/http';
import { createAppQueryClient, createQueryClient, IDENTITY_KEY, QUERY_DEFAULTS, retryDelay } from '../../src/providers/query-client';
import { createSession, memoryStore } from '../../src/providers/session';
import {
  MESSAGE_CONFIG,
  NOTIFICATION_CONFIG,
  NOTIFICATIONS,
  swipeDismisses,
  TOAST_VARIANTS,
  TOASTER,
  TOASTER_CSS,
  variantOf,
} from '../../src/providers/toasts';
import { IGNORED_PATH, keepsEvent, SENTRY_RATES } from '../../src/sentry';

describe('toasts', () => {
  it('confirmations: 4000 ms, at most 3 visible, 356 px wide, 14 px apart, a 45 px swipe', () => {
    expect(TOASTER).toMatchObject({ duration: 4000, visibleToasts: 3, width: 356, gap: 14, swipeThreshold: 45 });
    // antd counts seconds; the App hands it these.
    expect(MESSAGE_CONFIG).toMatchObject({ maxCount: 3, duration: 4 });
    expect(TOASTER_CSS).toContain('width: 356px');
    expect(TOASTER_CSS).toContain('padding: 0 0 14px');
    expect(swipeDismisses(45, 0, TOASTER)).toBe(true);
    expect(swipeDismisses(44, 0, TOASTER)).toBe(false);
  });

  it('notifications: one at a time, 5000 ms, swiped right past 50 px, F8 reaches them', () => {
    expect(NOTIFICATIONS).toMatchObject({ limit: 1, duration: 5000, swipeDirection: 'right', swipeThreshold: 50, hotkey: 'F8' });
    expect(NOTIFICATION_CONFIG).toEqual({ maxCount: 1, duration: 5 });
    expect(swipeDismisses(50, 10, NOTIFICATIONS)).toBe(true);
    expect(swipeDismisses(49, 0, NOTIFICATIONS)).toBe(false);
    // Right only, and across rather than down.
    expect(swipeDismisses(-80, 0, NOTIFICATIONS)).toBe(false);
    expect(swipeDismisses(60, 90, NOTIFICATIONS)).toBe(false);
  });

  it('has the variants default and destructive: an error is destructive', () => {
    expect(TOAST_VARIANTS).toEqual(['default', 'destructive']);
    expect(variantOf('error')).toBe('destructive');
    for (const type of ['success', 'progress', 'info', undefined]) expect(variantOf(type)).toBe('default');
  });
});

describe('data fetching', () => {
  it('a query client retries 3 times after min(1000·2^n, 30000) ms and keeps answers 5 minutes', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries).toMatchObject({ retry: 3, gcTime: 5 * 60 * 1000 });
    expect(queries?.retryDelay).toBe(retryDelay);
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(QUERY_DEFAULTS.retry).toBe(3);
  });

  it("the app's client does not retry, keeps answers 5 minutes, and the signed-in user never goes stale", () => {
    const client = createAppQueryClient();
    expect(client.getDefaultOptions().queries).toMatchObject({ retry: false, gcTime: 5 * 60 * 1000, refetchOnWindowFocus: false });
    expect(IDENTITY_KEY).toEqual(['auth', 'identity']);
    expect(client.defaultQueryOptions({ queryKey: IDENTITY_KEY }).staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(client.defaultQueryOptions({ queryKey: ['default', 'rooms', 'list'] }).staleTime).toBeUndefined();
  });

  it('an HTTP request has no default timeout: only the caller can cancel it', async () => {
    const seen: TransportRequest[] = [];
    const transport = async (request: TransportRequest) => {
      seen.push(request);
      return { status: 200, headers: {}, body: '{}' };
    };
    const { http } = createHttpClient({ session: createSession(memoryStore), locks: null, tenant: () => 'demo' });
    await http.get('/api/rooms', { transport });
    const caller = new AbortController();
    await http.post('/api/rooms', { name: 'A' }, { transport, signal: caller.signal });
    expect(seen[0]!.signal).toBeUndefined();
    expect(seen[1]!.signal).toBe(caller.signal);
  });
});

describe('error reporting', () => {
  it('samples 30 % of traces, replays 10 % of sessions and every session with an error', () => {
    expect(SENTRY_RATES).toEqual({ tracesSampleRate: 0.3, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1 });
  });

  it('sends nothing from the /login path', () => {
    const origin = 'https://demo.frontis.app';
    expect(IGNORED_PATH).toBe('/login');
    expect(keepsEvent({}, { origin, pathname: '/login' })).toBe(false);
    expect(keepsEvent({ request: { url: `${origin}/login?redirect=/` } }, { origin, pathname: '/' })).toBe(false);
    expect(keepsEvent({ request: { url: `${origin}/lessons/` } }, { origin, pathname: '/lessons/' })).toBe(true);
    expect(keepsEvent({}, { origin, pathname: '/login-help' })).toBe(true);
  });
});

describe('texts', () => {
  const read = (language: string, file: string) =>
    JSON.parse(readFileSync(join(__dirname, '../../src/locales', language, file), 'utf8')) as Record<string, Record<string, unknown>>;

  it('the files screen is titled File Management (Διαχείριση αρχείων); its sidebar entry stays Files', () => {
    expect(read('en', 'files.json').files?.title).toBe('File Management');
    expect(read('el', 'files.json').files?.title).toBe('Διαχείριση αρχείων');
    expect(read('en', 'files.json').folders?.folders).toBe('Files');
  });

  it("the lesson action reads 'Mark as replaced' (Greek: Σήμανση ως αναπληρωμένη)", () => {
    const action = (language: string) => (read(language, 'lessons.json').lessons?.actions as Record<string, string> | undefined)?.markToBeReplaced;
    expect(action('en')).toBe('Mark as replaced');
    expect(action('el')).toBe('Σήμανση ως αναπληρωμένη');
    expect(JSON.stringify(read('en', 'lessons.json'))).not.toContain('Mark as to be replaced');
  });
});
