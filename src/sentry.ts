import * as Sentry from '@sentry/react';

/** Error reporting's sampling: 30 % of traces, 10 % of sessions replayed, every session with an error replayed. */
export const SENTRY_RATES = { tracesSampleRate: 0.3, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1 } as const;

/** The page nothing is reported from: it holds typed credentials. */
export const IGNORED_PATH = '/login';

const isIgnoredUrl = (url: string | undefined, origin: string) => {
  if (!url) return false;
  try {
    return new URL(url, origin).pathname === IGNORED_PATH;
  } catch {
    return false;
  }
};

/** Whether an event goes out: not one from the sign-in page (its request's URL, or where the browser is). */
export function keepsEvent(event: { request?: { url?: string } }, where: { origin: string; pathname: string }): boolean {
  return !(isIgnoredUrl(event.request?.url, where.origin) || where.pathname === IGNORED_PATH);
}

export function initSentry(dsn: string) {
  Sentry.init({
    dsn,
    integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
    ...SENTRY_RATES,
    beforeSend: (event) => (keepsEvent(event, location) ? event : null),
    beforeSendTransaction: (event) => (keepsEvent(event, location) ? event : null),
  });
}
