import { ACTIVE_STATES, type Role } from '../enums';
import { defineResource, type RowOf } from '../fields';

// Staff accounts of a centre. TEACHER accounts are listed here but created with teachers.
export const USERS = defineResource({
  name: 'users',
  area: 'users',
  fields: [
    { name: 'username', type: 'USERNAME', required: true, sortable: true, filterable: true, searchable: true, personal: true },
    { name: 'password', type: 'PASSWORD', required: true, writeOnly: true },
    { name: 'role', type: 'ENUM', required: true, options: ['ADMIN', 'SECRETARY', 'TEACHER'], sortable: true, filterable: true },
    { name: 'first_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
    { name: 'last_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
    { name: 'email', type: 'EMAIL', sortable: true, filterable: true, searchable: true, personal: true },
    { name: 'phone', type: 'PHONE', filterable: true, searchable: true, personal: true },
    { name: 'status', type: 'ENUM', options: ACTIVE_STATES, default: 'ACTIVE', sortable: true, filterable: true },
  ],
  defaultSort: [
    { field: 'last_name', order: 'asc' },
    { field: 'first_name', order: 'asc' },
  ],
  screen: {
    order: 200,
    route: '/settings/',
    entity: 'user',
    modes: ['create', 'update'],
    icon: 'team',
    group: 'settings',
    // roles a manager may give, and a new password instead of the old one
    page: 'users',
    titleFields: ['first_name', 'last_name'],
  },
});

/** The signed-in account as My data shows it: its users row but the status; a ROOT has one too. */
export type MyDataRow = Omit<RowOf<typeof USERS>, 'status' | 'role' | 'created_at' | 'updated_at'> & { role: Role };
