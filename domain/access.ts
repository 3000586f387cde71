import type { Role } from './enums';

// The permission matrix, as data, apart from the declarations: a declaration names its area
// here (domain/fields.ts imports the Area type), and nothing here imports a declaration.
// The server checks it on every route; the client's accessControlProvider reads the same table, so the two never disagree.
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
export const MANAGERS: readonly Role[] = ['ROOT', 'ADMIN'];
export const ROOT_ONLY: readonly Role[] = ['ROOT'];

export interface Grant {
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
