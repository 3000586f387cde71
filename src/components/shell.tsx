import { ThemedLayout, ThemedTitle } from '@refinedev/antd';
import { CanAccess, useIsAuthenticated } from '@refinedev/core';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ROUTE_RESOURCE } from '../providers/accessControlProvider';
import { FullPageSpin } from './full-page-spin';
import { Header } from './header';

const Logo = () => <img src="/favicon.svg" alt="" width={24} height={24} />;

/**
 * The protected shell: nobody signed in -> /login?redirect=<here>; a role that may not open
 * this route (domain/permissions canOpenRoute) -> '/'.
 */
export default function Shell() {
  const location = useLocation();
  const { data, isLoading } = useIsAuthenticated();

  if (isLoading) return <FullPageSpin />;
  if (!data?.authenticated) {
    const here = location.pathname + location.search;
    return <Navigate to={here === '/' ? '/login' : `/login?redirect=${encodeURIComponent(here)}`} replace />;
  }

  return (
    <ThemedLayout Header={Header} Title={({ collapsed }) => <ThemedTitle collapsed={collapsed} text="Frontis" icon={<Logo />} />}>
      <CanAccess resource={ROUTE_RESOURCE} action="open" params={{ pathname: location.pathname }} fallback={<Navigate to="/" replace />}>
        <Suspense fallback={<FullPageSpin />}>
          <Outlet />
        </Suspense>
      </CanAccess>
    </ThemedLayout>
  );
}
