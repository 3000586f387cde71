import { ACTIVE_STATES, DEFAULT_TIME_ZONE, LANGUAGES } from '../enums';
import { defineResource } from '../fields';

// A centre. The slug is its host label (acme.frontis.app -> acme) and never changes.
export const TENANTS = defineResource({
  name: 'tenants',
  area: 'tenants',
  fields: [
    { name: 'slug', type: 'SLUG', required: true, createOnly: true, sortable: true, filterable: true, searchable: true },
    { name: 'name', type: 'TEXT', required: true, max: 200, sortable: true, filterable: true, searchable: true },
    { name: 'status', type: 'ENUM', options: ACTIVE_STATES, default: 'ACTIVE', sortable: true, filterable: true },
    { name: 'time_zone', type: 'TIME_ZONE', default: DEFAULT_TIME_ZONE, sortable: true, filterable: true },
    { name: 'language', type: 'ENUM', options: LANGUAGES, default: 'el', sortable: true, filterable: true },
  ],
  defaultSort: [{ field: 'name', order: 'asc' }],
  scope: 'platform',
  // the first administrator is created with the centre
  screen: { order: 210, route: '/tenants/', entity: 'tenant', modes: ['create', 'update'], icon: 'shop', page: 'tenants' },
});
