import { ThemedLayout, ThemedTitle } from '@refinedev/antd';
import { CanAccess, useIsAuthenticated } from '@refinedev/core';
import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { homeOf, ROUTE_RESOURCE } from '../engine/access-control';
import { useRuntimeResources } from '../engine/runtime/runtime';
import { FullPageSpin } from './full-page-spin';
import { Header } from './header';
import { OfflineBanner } from './offline-banner';
import { session } from '../providers/session';
import './shell.css';

const Logo = () => <img src="/favicon.svg" alt="" width={24} height={24} />;

/**
 * The protected shell: nobody signed in -> /login?redirect=<here>; a role that may not open
 * this route (domain/permissions canOpenRoute) -> its home: a guardian's portal, the staff's
 * calendar. A guardian gets the same layout, its sidebar narrowed to the portal's screens.
 */
export default function Shell() {
  const location = useLocation();
  const { data, isLoading } = useIsAuthenticated();
  const { load } = useRuntimeResources();
  const authenticated = data?.authenticated === true;
  const role = session.get()?.role;
  // Resources declared at run time come from the server once a member of staff is signed in.
  useEffect(() => {
    if (authenticated && role !== 'GUARDIAN') load();
  }, [authenticated, role, load]);

  if (isLoading) return <FullPageSpin />;
  if (!authenticated) {
    const here = location.pathname + location.search;
    return <Navigate to={here === '/' ? '/login' : `/login?redirect=${encodeURIComponent(here)}`} replace />;
  }

  return (
    <ThemedLayout Header={Header} Title={({ collapsed }) => <ThemedTitle collapsed={collapsed} text="Frontis" icon={<Logo />} />}>
      <OfflineBanner />
      <CanAccess resource={ROUTE_RESOURCE} action="open" params={{ pathname: location.pathname }} fallback={<Navigate to={homeOf(role)} replace />}>
        <Suspense fallback={<FullPageSpin />}>
          <Outlet />
        </Suspense>
      </CanAccess>
    </ThemedLayout>
  );
}
