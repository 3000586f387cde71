import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './providers/i18nProvider';
import { Root } from './root';

// Error reporting only when configured, and loaded on its own so /login stays small.
const dsn = import.meta.env.VITE_SENTRY_DSN;
if (dsn) void import('./sentry').then((m) => m.initSentry(dsn));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
