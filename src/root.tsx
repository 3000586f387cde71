import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AccessibleNames } from './components/accessible-names';
import { FullPageSpin } from './components/full-page-spin';
import { PreferencesProvider } from './components/preferences';
import { lazyPart } from './lazy';
import { ErrorBoundary } from './pages/error-boundary';
import { App, preloadHome } from './preload';

// The sign-in page is loaded without Refine, the layout or any screen, to keep it small
// (at most 250 KB of gzipped JavaScript). Everything else is App.
const LoginPage = lazyPart(() => import('./pages/login'));
// A guardian's invitation: as light as the sign-in page, and like it outside the app.
const InvitationPage = lazyPart(() => import('./pages/invitation'));

export function Root() {
  return (
    <BrowserRouter>
      <PreferencesProvider>
        <AccessibleNames />
        <ErrorBoundary>
          <Suspense fallback={<FullPageSpin />}>
            <Routes>
              <Route path="/login" element={<LoginPage preloadHome={preloadHome} />} />
              <Route path="/invitation" element={<InvitationPage />} />
              <Route path="*" element={<App />} />
            </Routes>
          </Suspense>
        </ErrorBoundary>
      </PreferencesProvider>
    </BrowserRouter>
  );
}
