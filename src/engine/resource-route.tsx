import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RESOURCES, routePath } from '../../domain/resources/index';
import { ResourceScreen } from './resource-screen';
import { useRuntimeResources } from './runtime/runtime';
import { RuntimeScreen } from './runtime-screen';

/** Declarations shown by the generic screen: those without a page of their own. */
export const PLAIN_RESOURCES = Object.values(RESOURCES).filter((d) => !d.screen.page);

/**
 * The screen of a declaration without a page of its own, built-in or arrived at run time:
 * the route's path says which, and the generic screen shows it; any other path shows
 * `notFound` (the app's page, handed down so the engine imports no page).
 */
export default function ResourceRoute({ notFound }: { notFound: ReactNode }) {
  const { pathname } = useLocation();
  const { declarations } = useRuntimeResources();
  const path = routePath(pathname);
  const def = PLAIN_RESOURCES.find((d) => routePath(d.screen.route) === path);
  if (def) return <ResourceScreen key={def.screen.route} def={def} />;
  const runtime = declarations.find((d) => routePath(d.screen.route) === path);
  if (runtime) return <RuntimeScreen key={runtime.screen.route} def={runtime} />;
  return notFound;
}
