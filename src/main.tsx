import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './providers/i18nProvider';
import { Root } from './root';

// Error reporting only when configured, and loaded on its own so /login stays small.
const dsn = import.meta.env.VITE_SENTRY_DSN;
if (dsn) void import('./sentry').then((m) => m.initSentry(dsn));

// Drawn once the chosen language's strings are there (Greek at once; English fetched first).
// Should English fail to arrive, the page speaks Greek, the fallback.
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
void i18nReady.then(render, render);
