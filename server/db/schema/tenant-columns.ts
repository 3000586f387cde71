/**
 * The columns every table of a centre's own rows starts with. Such a table is keyed
 * (tenant_id, id), so a foreign key that includes tenant_id can never point into another centre.
 */
import { integer, text } from 'drizzle-orm/pg-core';
import { tenants } from './platform';

/** The centre the row belongs to. */
export const tenantId = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id);

/** The row's number, given by the database. */
export const id = () => integer('id').notNull().generatedAlwaysAsIdentity();

/** normalizeSearch() of the row's searchable fields, which `q` looks in. */
export const search = () => text('search').notNull().default('');
