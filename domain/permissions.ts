import type { Role } from './enums';
import { RESOURCES, routePath, SCREENS } from './resources/index';

// The permission matrix, as data. The server checks it on every route;
// the client's accessControlProvider reads the same table, so the two never disagree.
export type Area =
  | 'tenants'
  | 'customEntityDefinitions'
  | 'users'
  | 'customFields'
  | 'categories'
  | 'files'
  | 'analytics'
  | 'account'
  | 'expenses'
  | 'students'
  | 'teachers'
  | 'contracts'
  | 'payments'
  | 'lessons'
  | 'directory'
  | 'classes'
  | 'notes'
  | 'notifications'
  | 'mydata'
  | 'customEntityRecords';

export type Action = 'list' | 'read' | 'create' | 'update' | 'delete';

const ALL: readonly Role[] = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'];
const STAFF: readonly Role[] = ['ROOT', 'ADMIN', 'SECRETARY'];
const MANAGERS: readonly Role[] = ['ROOT', 'ADMIN'];
const ROOT_ONLY: readonly Role[] = ['ROOT'];

interface Grant {
  /** May list and read. */
  read: readonly Role[];
  /** May create, update and delete. */
  write: readonly Role[];
  /** Roles whose rights the server narrows to their own rows (TEACHER: own lessons, own notes). */
  ownOnly?: readonly Role[];
}

export const PERMISSIONS: Record<Area, Grant> = {
  tenants: { read: ROOT_ONLY, write: ROOT_ONLY },
  // Definitions are kept by ROOT; every other role learns its entities from the runtime declarations.
  customEntityDefinitions: { read: ROOT_ONLY, write: ROOT_ONLY },
  users: { read: MANAGERS, write: MANAGERS },
  // Definitions and categories are read by whoever fills a form that uses them.
  customFields: { read: ALL, write: MANAGERS },
  categories: { read: ALL, write: MANAGERS },
  files: { read: MANAGERS, write: MANAGERS },
  analytics: { read: MANAGERS, write: MANAGERS },
  account: { read: MANAGERS, write: MANAGERS },
  expenses: { read: MANAGERS, write: MANAGERS },
  // TEACHER reads the students of the classes she teaches (to pick them for a note).
  students: { read: ALL, write: STAFF, ownOnly: ['TEACHER'] },
  // TEACHER reads her own teacher row (to name herself in a note).
  teachers: { read: ALL, write: STAFF, ownOnly: ['TEACHER'] },
  contracts: { read: STAFF, write: STAFF },
  payments: { read: STAFF, write: STAFF },
  // TEACHER reads own lessons and edits only their homework and notes (the server narrows).
  lessons: { read: ALL, write: ALL, ownOnly: ['TEACHER'] },
  directory: { read: ALL, write: STAFF },
  // TEACHER reads the classes she teaches (her lessons name them).
  classes: { read: ALL, write: STAFF, ownOnly: ['TEACHER'] },
  notes: { read: ALL, write: ALL, ownOnly: ['TEACHER'] },
  notifications: { read: ALL, write: ALL, ownOnly: ALL },
  mydata: { read: ALL, write: ALL, ownOnly: ALL },
  // Records of custom entities: the office keeps them, TEACHER reads them.
  customEntityRecords: { read: ALL, write: STAFF },
};

export function can(role: Role, area: Area, action: Action): boolean {
  const grant = PERMISSIONS[area];
  const roles = action === 'list' || action === 'read' ? grant.read : grant.write;
  return roles.includes(role);
}

/** True when the server must limit `role` to its own rows in `area`. */
export const isOwnOnly = (role: Role, area: Area): boolean => PERMISSIONS[area].ownOnly?.includes(role) ?? false;

/** API resources not declared in domain/resources yet; their routes check these areas. */
const UNDECLARED_AREAS: Record<string, Area> = {
  'custom-entities': 'customEntityDefinitions',
  analytics: 'analytics',
  account: 'account',
  notifications: 'notifications',
  mydata: 'mydata',
  'custom-entity-records': 'customEntityRecords',
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
};
