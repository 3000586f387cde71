import { Refine } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import { DocumentTitleHandler } from '@refinedev/react-router';
import { type ComponentType, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { FullPageSpin } from './components/full-page-spin';
import { SessionNavigator } from './components/session-navigator';
import { DetailTabsContext } from './engine/view/declared-tabs';
import { type LazyPart, lazyPage, lazyPart } from './lazy';
import { accessControlProvider } from './engine/access-control';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { createI18nProvider, i18n } from './providers/i18nProvider';
import { useNotificationProvider } from './providers/notificationProvider';
import { MESSAGE_CONFIG, NOTIFICATION_CONFIG } from './providers/toasts';
import { ToastBehaviour } from './components/toast-behaviour';
import { onRecovery } from './providers/connectivity';
import { createAppQueryClient } from './providers/query-client';
import { routerProvider, SharedAddress } from './providers/router';
import { refineResources } from './resources';
import { DETAIL_TABS } from './resources/detail-tabs';
import { CLIENT_SCREENS, PAGES, routeTable } from './routes';
import type { Role } from '../domain/enums';
import { canOpenRoute } from '../domain/permissions';
import { routePath } from '../domain/resources/index';
import { fetchRuntimeDeclarations, RUNTIME_ROUTE, RuntimeResourcesProvider, useRuntimeResourcesState } from './engine/runtime/runtime';
import './locales/screens';

// Every screen is its own chunk. /login is outside (root.tsx), so each sign-in mounts a
// fresh Refine with an empty query cache: nothing of the previous user is reused.
const Shell = lazyPage(() => import('./components/shell'));
const ResourceRoute = lazyPart(() => import('./engine/resource-route'));
const NotFoundPage = lazyPage(() => import('./pages/not-found'));
/** The generic screen of a declaration without a page of its own (or not found). */
const GenericScreen = () => <ResourceRoute notFound={<NotFoundPage />} />;

const PAGE_OF_PATH = new Map(routeTable(CLIENT_SCREENS).map(({ path, page }) => [path, page]));

/** The part that draws `pathname`: its page, or the generic screen (declarations, run-time screens, not found). */
const partOf = (pathname: string) => {
  const page = PAGE_OF_PATH.get(routePath(pathname));
  return (page && PAGES[page]) || ResourceRoute;
};

/**
 * Fetches the layout and the screen of `pathname` together: the sign-in page calls it for the
 * home (the calendar) or the address it will lead to, and a page opened at an address calls
 * it as soon as the app's code is there, instead of after the session check and the layout.
 */
export const preloadRoute = (pathname: string) => Promise.all([Shell.preload(), partOf(pathname).preload()]);

/**
 * Fetches (and evaluates) the code of every sidebar screen `role` may open, in the sidebar's
 * order, one after another, each once `ready` resolves: a first click on a screen then draws
 * it at once and sends its requests, instead of downloading its chunks first. Resolves true
 * when all are there; stops at the first part that fails to arrive (an outage, or a deploy:
 * its real use deals with that) and resolves false.
 */
export async function preloadScreens(role: Role, ready: () => Promise<void>): Promise<boolean> {
  const parts = new Set<Pick<LazyPart<ComponentType>, 'preload' | 'loaded'>>();
  for (const { screen } of CLIENT_SCREENS) {
    if (screen.hidden || !canOpenRoute(role, routePath(screen.route))) continue;
    parts.add(partOf(screen.route));
  }
  for (const part of parts) {
    if (part.loaded()) continue;
    await ready();
    await part.preload();
    if (!part.loaded()) return false;
  }
  return true;
}

/** One route per declared path: a page when the declaration names one, else the generic screen. */
const ROUTES = routeTable(CLIENT_SCREENS).map(({ path, page }) => {
  const Page = (page && PAGES[page]) || GenericScreen;
  return path === '/' ? <Route key="/" index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />;
});

/**
 * One object for the app's life: Refine wraps a bare data provider in a new `{ default }` on
 * every draw of its root, and every `useDataProvider()` then changed with it (an effect that
 * depended on it ran again and put back what the user had just removed in a form).
 */
const DATA_PROVIDERS = { default: dataProvider };

const titleHandler = ({ resource }: { resource?: { name: string } }) =>
  resource ? `${i18n.t(`${resource.name}.title`, { defaultValue: resource.name })} | Frontis` : 'Frontis';

export default function App({ loadRuntime = fetchRuntimeDeclarations }: { loadRuntime?: () => Promise<unknown> }) {
  const { i18n: instance } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new provider for each language makes Refine re-render its texts
  const i18nProvider = useMemo(createI18nProvider, [instance.language]);
  const runtime = useRuntimeResourcesState(loadRuntime);
  const resources = useMemo(() => refineResources(CLIENT_SCREENS, runtime.declarations), [runtime.declarations]);
  const [queryClient] = useState(createAppQueryClient);
  // After an outage, everything on screen is fetched again.
  useEffect(() => onRecovery(() => void queryClient.invalidateQueries()), [queryClient]);
  return (
    <AntdApp notification={NOTIFICATION_CONFIG} message={MESSAGE_CONFIG}>
      <ToastBehaviour />
      <RuntimeResourcesProvider value={runtime}>
        <DetailTabsContext.Provider value={DETAIL_TABS}>
          <Refine
            routerProvider={routerProvider}
            dataProvider={DATA_PROVIDERS}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            i18nProvider={i18nProvider}
            notificationProvider={useNotificationProvider}
            resources={resources}
            options={{
              syncWithLocation: true,
              warnWhenUnsavedChanges: true,
              disableTelemetry: true,
              title: { text: 'Frontis' },
              reactQuery: { clientConfig: queryClient },
            }}
          >
            <SharedAddress>
              <SessionNavigator />
              <Suspense fallback={<FullPageSpin />}>
                <Routes>
                  <Route element={<Shell />}>
                    {ROUTES}
                    <Route path={`${RUNTIME_ROUTE}:slug`} element={<GenericScreen />} />
                    <Route path="*" element={<NotFoundPage />} />
                  </Route>
                </Routes>
              </Suspense>
              {/* keyed by language: the title is written again when the language changes, not only on navigation */}
              <DocumentTitleHandler key={instance.language} handler={titleHandler} />
            </SharedAddress>
          </Refine>
        </DetailTabsContext.Provider>
      </RuntimeResourcesProvider>
    </AntdApp>
  );
}
