import { Refine } from '@refinedev/core';
import { App as AntdApp } from 'antd';
import routerProvider, { DocumentTitleHandler } from '@refinedev/react-router';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { FullPageSpin } from './components/full-page-spin';
import { SessionNavigator } from './components/session-navigator';
import { lazyPage } from './lazy';
import { accessControlProvider } from './providers/accessControlProvider';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { createI18nProvider, i18n } from './providers/i18nProvider';
import { TOASTS, useNotificationProvider } from './providers/notificationProvider';
import { resources } from './resources';
import './locales/screens';

// Every screen is its own chunk. /login is outside (root.tsx), so each sign-in mounts a
// fresh Refine with an empty query cache: nothing of the previous user is reused.
const Shell = lazyPage(() => import('./components/shell'));
const HomePage = lazyPage(() => import('./pages/calendar'));
const LessonsPage = lazyPage(() => import('./resources/lessons'));
const UsersPage = lazyPage(() => import('./resources/users'));
const TenantsPage = lazyPage(() => import('./resources/tenants'));
const MyDataPage = lazyPage(() => import('./pages/mydata'));
const SubjectsPage = lazyPage(() => import('./resources/subjects'));
const RoomsPage = lazyPage(() => import('./resources/rooms'));
const ClassesPage = lazyPage(() => import('./resources/classes'));
const ClassCategoriesPage = lazyPage(() => import('./resources/class-categories'));
const ContractCategoriesPage = lazyPage(() => import('./resources/contract-categories'));
const LessonSettingsPage = lazyPage(() => import('./resources/lesson-settings'));
const NotesPage = lazyPage(() => import('./resources/notes'));
const TeachersPage = lazyPage(() => import('./resources/teachers'));
const StudentsPage = lazyPage(() => import('./resources/students'));
const StudentCustomFieldsPage = lazyPage(() => import('./resources/student-custom-fields'));
const NotFoundPage = lazyPage(() => import('./pages/not-found'));

const titleHandler = ({ resource }: { resource?: { name: string } }) =>
  resource ? `${i18n.t(`${resource.name}.title`, { defaultValue: resource.name })} | Frontis` : 'Frontis';

export default function App() {
  const { i18n: instance } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new provider for each language makes Refine re-render its texts
  const i18nProvider = useMemo(createI18nProvider, [instance.language]);
  return (
    <AntdApp notification={TOASTS} message={TOASTS}>
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
          reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
        }}
      >
        <SessionNavigator />
        <Suspense fallback={<FullPageSpin />}>
          <Routes>
            <Route element={<Shell />}>
              <Route index element={<HomePage />} />
              <Route path="/settings" element={<UsersPage />} />
              <Route path="/tenants" element={<TenantsPage />} />
              <Route path="/mydata" element={<MyDataPage />} />
              <Route path="/subjects" element={<SubjectsPage />} />
              <Route path="/rooms" element={<RoomsPage />} />
              <Route path="/classes" element={<ClassesPage />} />
              <Route path="/classes/settings" element={<ClassCategoriesPage />} />
              <Route path="/lessons" element={<LessonsPage />} />
              <Route path="/lessons/settings" element={<LessonSettingsPage />} />
              <Route path="/contracts/settings" element={<ContractCategoriesPage />} />
              <Route path="/notes" element={<NotesPage />} />
              <Route path="/teachers" element={<TeachersPage />} />
              <Route path="/students" element={<StudentsPage />} />
              <Route path="/students/settings" element={<StudentCustomFieldsPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </Suspense>
        <DocumentTitleHandler handler={titleHandler} />
      </Refine>
    </AntdApp>
  );
}
