import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import '../../../src/providers/i18nProvider';
import { ROOMS } from '../../../domain/resources/index';
import App from '../../../src/App';
import { PreferencesProvider } from '../../../src/components/preferences';
import LoginPage from '../../../src/pages/login';

// The real web client with one difference: the runtime declarations come from this JSON text
// instead of GET /api/resources/runtime (which lists none until custom entities exist). From
// there on everything is the client's own path: parsing, the Refine resource, the route, the
// access check and the generic screen, against the real server's rooms.
const answer = JSON.stringify({
  data: [
    { ...ROOMS, screen: { route: '/custom-entities/entity/rooms-copy/', entity: 'custom_entity_instance', modes: ['create', 'update', 'view'], icon: 'home' } },
  ],
});
const loadRuntime = async (): Promise<unknown> => JSON.parse(answer);

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <PreferencesProvider>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<App loadRuntime={loadRuntime} />} />
      </Routes>
    </PreferencesProvider>
  </BrowserRouter>,
);
