/**
 * Long imports worked in the background (server/engine/import-jobs.ts): how far each has come,
 * its report once done, and the rows it has created so far (written in the same transaction
 * as them), so any process can answer its starter's poll, and a job whose process died can be
 * taken back whole.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant } from './columns';
import { tenantId } from './tenant-columns';

export const importJobs = pgTable(
  'import_jobs',
  {
    tenantId: tenantId(),
    /** A random UUID: the job's name in the poll's address. */
    id: text('id').notNull(),
    /** Who started it (only she reads it): `user:<id>` or `root:<id>`. */
    starter: text('starter').notNull(),
    /** The import's address, e.g. /api/students/import. */
    path: text('path').notNull(),
    status: text('status').notNull().default('checking'),
    total: integer('total').notNull(),
    checked: integer('checked').notNull().default(0),
    /** The ids of the rows created so far, taken back if the job fails. */
    createdIds: integer('created_ids').array().notNull().default(sql`'{}'`),
    report: jsonb('report').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<Record<string, unknown>>(),
    /** Moved on by every part the worker finishes; a job not moved for long lost its process. */
    heartbeatAt: instant('heartbeat_at').notNull().defaultNow(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('import_jobs_created_idx').on(t.tenantId, t.createdAt)],
);
