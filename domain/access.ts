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
  | 'guardians'
  | 'attendance'
  | 'receipts'
  | 'messages'
  | 'settings'
  | 'teachers'
  | 'contracts'
  | 'payments'
  | 'lessons'
  | 'directory'
  | 'classes'
  | 'notes'
  | 'notifications'
  | 'mydata'
  | 'password'
  | 'customEntityRecords'
  | 'personalData'
  | 'portal';

export type Action = 'list' | 'read' | 'create' | 'update' | 'delete';

const ALL: readonly Role[] = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'];
/** Every role, the families' GUARDIAN included: what each person has of her own. */
const EVERYONE: readonly Role[] = [...ALL, 'GUARDIAN'];
export const GUARDIAN_ONLY: readonly Role[] = ['GUARDIAN'];
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
  // The families and the centre's fiscal documents are the office's.
  guardians: { read: STAFF, write: STAFF },
  receipts: { read: STAFF, write: STAFF },
  // The log of messages to families: the office reads it; only the server writes it.
  messages: { read: STAFF, write: [] },
  // The centre's issuer details, myDATA credentials and reminder schedule.
  settings: { read: MANAGERS, write: MANAGERS },
  // A TEACHER reads and marks the attendance of her own lessons.
  attendance: { read: ALL, write: ALL, ownOnly: ['TEACHER'] },
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
  notifications: { read: EVERYONE, write: EVERYONE, ownOnly: EVERYONE },
  // One's own account: a GUARDIAN reads hers, but her names and contact details are her
  // guardian record's, which she changes in the portal (the centre's copy of her address is
  // her sign-in, so it is the centre's to change).
  mydata: { read: EVERYONE, write: ALL, ownOnly: EVERYONE },
  // One's own password, everyone's, a GUARDIAN's too (from the portal's details).
  password: { read: EVERYONE, write: EVERYONE, ownOnly: EVERYONE },
  // Records of custom entities: the office keeps them, TEACHER reads them.
  customEntityRecords: { read: ALL, write: STAFF },
  // A person's whole data, its erasure and the whole centre's archive: the centre's managers.
  personalData: { read: MANAGERS, write: MANAGERS },
  // The families' portal (/api/portal): a GUARDIAN's own children, read in the database as
  // her (row-level security keyed on her guardian id); staff areas above never name GUARDIAN.
  portal: { read: GUARDIAN_ONLY, write: GUARDIAN_ONLY, ownOnly: GUARDIAN_ONLY },
};

export function can(role: Role, area: Area, action: Action): boolean {
  const grant = PERMISSIONS[area];
  const roles = action === 'list' || action === 'read' ? grant.read : grant.write;
  return roles.includes(role);
}

/** True when the server must limit `role` to its own rows in `area`. */
export const isOwnOnly = (role: Role, area: Area): boolean => PERMISSIONS[area].ownOnly?.includes(role) ?? false;
