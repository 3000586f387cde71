import { sql, type SQL } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, primaryKey, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { SORT_FOLDING } from '../../../domain/text';

/** Instants are stored with time zone and read as JS Dates, so both drivers agree on the wire format. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Columns every editable row carries: optimistic-lock version and audit instants. */
export const rowMeta = () => ({
  version: integer('version').notNull().default(1),
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
const FOLD = sql.raw(`${quoted(SORT_FOLDING.from)}, ${quoted(SORT_FOLDING.to)}`);

/**
 * The key text is sorted by: accents, case and the final sigma folded (domain/text.ts), then
 * compared by code point, so both engines order alike whatever their locale. Lists order by
 * this exact expression and big tables index it; the planner uses such an index only when
 * the two are written identically, hence the one function. The tables are inlined as
 * literals because an index cannot match a bound parameter.
 */
export const sortKey = (value: AnyPgColumn | SQL): SQL => sql`(translate(${value}, ${FOLD}) collate "C")`;

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
