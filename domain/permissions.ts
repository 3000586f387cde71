import { MANAGERS, PERMISSIONS, ROOT_ONLY, type Area } from './access';
import type { Role } from './enums';
import { RESOURCES, routePath, SCREENS } from './resources/index';

// What follows from the matrix and the declarations together: each API resource's area and
// the client's route guards. The matrix itself lives in access.ts, below the declarations.
export { can, isOwnOnly, PERMISSIONS, type Action, type Area } from './access';

/** API resources not declared in domain/resources yet; their routes check these areas. */
const UNDECLARED_AREAS: Record<string, Area> = {
  'custom-entities': 'customEntityDefinitions',
  analytics: 'analytics',
  account: 'account',
  notifications: 'notifications',
  mydata: 'mydata',
  'custom-entity-records': 'customEntityRecords',
  receipts: 'receipts',
  messages: 'messages',
  settings: 'settings',
};

/** Which area each API resource belongs to: a declaration's own area, so it is said once. */
export const RESOURCE_AREA: Record<string, Area> = {
  ...UNDECLARED_AREAS,
  ...Object.fromEntries(Object.values(RESOURCES).map((r) => [r.name, r.area])),
};

export interface RouteGuard {
  path: string;
  exact?: boolean;
  roles: readonly Role[];
}

/** Who opens a declared screen: whoever reads its area, or only who may change it (settings pages). */
export function routeGuardOf(def: { area: Area; screen: { route: string; opensFor?: 'readers' | 'writers' } }): RouteGuard {
  const grant = PERMISSIONS[def.area];
  return { path: routePath(def.screen.route), roles: def.screen.opensFor === 'writers' ? grant.write : grant.read };
}

/** Screens not declared yet. */
const UNDECLARED_ROUTES: readonly RouteGuard[] = [
  { path: '/custom-entities', exact: true, roles: ROOT_ONLY },
  { path: '/custom-entities/builder', roles: ROOT_ONLY },
  { path: '/analytics', roles: MANAGERS },
];

/** Route guards of the client; the most specific prefix wins, '/' matches only itself. */
export const ROUTE_ROLES: readonly RouteGuard[] = [...SCREENS.map(routeGuardOf), ...UNDECLARED_ROUTES];

/** May `role` open `pathname`? `extra` adds guards of screens declared at run time. */
export function canOpenRoute(role: Role, pathname: string, extra: readonly RouteGuard[] = []): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  const matches = [...ROUTE_ROLES, ...extra].filter((r) => (r.exact ? path === r.path : path === r.path || path.startsWith(`${r.path}/`)));
  if (matches.length === 0) return true;
  const best = matches.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  return best.roles.includes(role);
}

/** Which roles a user of `role` may give through /api/users (TEACHER accounts come with teachers). */
export const MANAGEABLE_ROLES_BY: Record<Role, readonly Role[]> = {
  ROOT: ['ADMIN', 'SECRETARY'],
  ADMIN: ['ADMIN', 'SECRETARY'],
  SECRETARY: [],
  TEACHER: [],
  // a guardian's sign-in comes with her portal access, never through /api/users
  GUARDIAN: [],
};
