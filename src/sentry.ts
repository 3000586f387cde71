import * as Sentry from '@sentry/react';

const isLoginEvent = (url: string | undefined) => {
  if (!url) return false;
  try {
    return new URL(url, location.origin).pathname === '/login';
  } catch {
    return false;
  }
};

export function initSentry(dsn: string) {
  Sentry.init({
    dsn,
    integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
    tracesSampleRate: 0.3,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    // Nothing from the sign-in page: it holds typed credentials.
    beforeSend: (event) => (isLoginEvent(event.request?.url) || location.pathname === '/login' ? null : event),
    beforeSendTransaction: (event) => (isLoginEvent(event.request?.url) || location.pathname === '/login' ? null : event),
  });
}
