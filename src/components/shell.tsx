import { ThemedLayout, ThemedTitle } from '@refinedev/antd';
import { useIsAuthenticated } from '@refinedev/core';
import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { allows, homeOf, ROUTE_RESOURCE } from '../engine/access-control';
import { useRuntimeResources } from '../engine/runtime/runtime';
import { FullPageSpin } from './full-page-spin';
import { Header } from './header';
import { OfflineBanner } from './offline-banner';
import { session } from '../providers/session';
import './shell.css';

const Logo = () => <img src="/favicon.svg" alt="" width={24} height={24} />;
/** The sidebar's title, one component for the page's life (made in the render, it was drawn anew on every navigation). */
const Title = ({ collapsed }: { collapsed: boolean }) => <ThemedTitle collapsed={collapsed} text="Frontis" icon={<Logo />} />;

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
    <ThemedLayout Header={Header} Title={Title}>
      <OfflineBanner />
      {/* asked while drawing, not through a query: the screen of a new address is drawn at once */}
      {allows(ROUTE_RESOURCE, 'open', { pathname: location.pathname }) ? (
        <Suspense fallback={<FullPageSpin />}>
          <Outlet />
        </Suspense>
      ) : (
        <Navigate to={homeOf(role)} replace />
      )}
    </ThemedLayout>
  );
}
