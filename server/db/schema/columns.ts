import { foreignKey, index, integer, pgTable, primaryKey, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Instants are stored with time zone and read as JS Dates, so both drivers agree on the wire format. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Columns every editable row carries: optimistic-lock version and audit instants. */
export const rowMeta = () => ({
  version: integer('version').notNull().default(1),
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

const linkColumn = (name: string) => integer(name).notNull();

/** A row a link points at: keyed (tenant_id, id). */
interface Keyed {
  tenantId: AnyPgColumn;
  id: AnyPgColumn;
}

/**
 * The join table behind a REFERENCES field, keyed (tenant_id, owner, other), indexed by the
 * other side, both foreign keys including tenant_id and cascading: a link dies with either end.
 * `owner` and `other` name each side's property and column (`['lessonId', 'lesson_id', () => lessons]`).
 */
export function linkTable<O extends string, X extends string>(name: string, owner: [O, string, () => Keyed], other: [X, string, () => Keyed]) {
  const [ownerKey, ownerColumn, ownerTable] = owner;
  const [otherKey, otherColumn, otherTable] = other;
  const columns = { tenantId: linkColumn('tenant_id'), [ownerKey]: linkColumn(ownerColumn), [otherKey]: linkColumn(otherColumn) } as Record<
    'tenantId' | O | X,
    ReturnType<typeof linkColumn>
  >;
  return pgTable(name, columns, (t) => {
    const cols = t as unknown as Record<string, AnyPgColumn>;
    return [
      primaryKey({ columns: [cols.tenantId!, cols[ownerKey]!, cols[otherKey]!] }),
      index(`${name}_${otherColumn.replace(/_id$/, '')}_idx`).on(cols.tenantId!, cols[otherKey]!),
      foreignKey({ columns: [cols.tenantId!, cols[ownerKey]!], foreignColumns: [ownerTable().tenantId, ownerTable().id] }).onDelete('cascade'),
      foreignKey({ columns: [cols.tenantId!, cols[otherKey]!], foreignColumns: [otherTable().tenantId, otherTable().id] }).onDelete('cascade'),
    ];
  });
}
