import { integer, timestamp } from 'drizzle-orm/pg-core';

/** Instants are stored with time zone and read as JS Dates, so both drivers agree on the wire format. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Columns every editable row carries: optimistic-lock version and audit instants. */
export const rowMeta = () => ({
  version: integer('version').notNull().default(1),
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});
