import { Refine } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import routerProvider, { DocumentTitleHandler } from '@refinedev/react-router';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { FullPageSpin } from './components/full-page-spin';
import { SessionNavigator } from './components/session-navigator';
import { DetailTabsContext } from './engine/view/declared-tabs';
import { lazyPage, lazyPart } from './lazy';
import { accessControlProvider } from './engine/access-control';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { createI18nProvider, i18n } from './providers/i18nProvider';
import { useNotificationProvider } from './providers/notificationProvider';
import { MESSAGE_CONFIG, NOTIFICATION_CONFIG } from './providers/toasts';
import { ToastBehaviour } from './components/toast-behaviour';
import { createAppQueryClient } from './providers/query-client';
import { refineResources } from './resources';
import { DETAIL_TABS } from './resources/detail-tabs';
import { CLIENT_SCREENS, PAGES, routeTable } from './routes';
import { fetchRuntimeDeclarations, RUNTIME_ROUTE, RuntimeResourcesProvider, useRuntimeResourcesState } from './engine/runtime/runtime';
import './locales/screens';

// Every screen is its own chunk. /login is outside (root.tsx), so each sign-in mounts a
// fresh Refine with an empty query cache: nothing of the previous user is reused.
const Shell = lazyPage(() => import('./components/shell'));
const ResourceRoute = lazyPart(() => import('./engine/resource-route'));
const NotFoundPage = lazyPage(() => import('./pages/not-found'));
/** The generic screen of a declaration without a page of its own (or not found). */
const GenericScreen = () => <ResourceRoute notFound={<NotFoundPage />} />;

/** Fetches the layout and the home screen (the calendar), for the sign-in page to call ahead. */
export const preloadHome = () => Promise.all([Shell.preload(), PAGES.calendar?.preload()]);

/** One route per declared path: a page when the declaration names one, else the generic screen. */
const ROUTES = routeTable(CLIENT_SCREENS).map(({ path, page }) => {
  const Page = (page && PAGES[page]) || GenericScreen;
  return path === '/' ? <Route key="/" index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />;
});

const titleHandler = ({ resource }: { resource?: { name: string } }) =>
  resource ? `${i18n.t(`${resource.name}.title`, { defaultValue: resource.name })} | Frontis` : 'Frontis';

export default function App({ loadRuntime = fetchRuntimeDeclarations }: { loadRuntime?: () => Promise<unknown> }) {
  const { i18n: instance } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new provider for each language makes Refine re-render its texts
  const i18nProvider = useMemo(createI18nProvider, [instance.language]);
  const runtime = useRuntimeResourcesState(loadRuntime);
  const resources = useMemo(() => refineResources(CLIENT_SCREENS, runtime.declarations), [runtime.declarations]);
  const [queryClient] = useState(createAppQueryClient);
  return (
    <AntdApp notification={NOTIFICATION_CONFIG} message={MESSAGE_CONFIG}>
      <ToastBehaviour />
      <RuntimeResourcesProvider value={runtime}>
        <DetailTabsContext.Provider value={DETAIL_TABS}>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
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
          </Refine>
        </DetailTabsContext.Provider>
      </RuntimeResourcesProvider>
    </AntdApp>
  );
}
