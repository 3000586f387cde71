import { sql, type SQL } from 'drizzle-orm';
import { customType, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { SORT_FOLDING } from '../../../domain/text';

/** Instants are stored with time zone and read as JS Dates, so both drivers agree on the wire format. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A time of day as the API writes it (`09:30`): a `time` column read back without seconds. */
export const wallTime = customType<{ data: string; driverData: string }>({
  dataType: () => 'time',
  fromDriver: (value) => String(value).slice(0, 5),
  toDriver: (value) => value,
});

/** Columns every editable row carries: optimistic-lock version and audit instants. */
export const rowMeta = () => ({
  version: integer('version').notNull().default(1),
  createdAt: instant('created_at').notNull().defaultNow(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
const FOLD = sql.raw(`${quoted(SORT_FOLDING.from)}, ${quoted(SORT_FOLDING.to)}`);

/** Accents, case and the final sigma folded (domain/text.ts); literals, so an index can hold it. */
const folded = (value: AnyPgColumn | SQL): SQL => sql`translate(${value}, ${FOLD})`;

/** Compared by code point, so both engines order alike whatever their locale. */
export const byCodePoint = (value: AnyPgColumn | SQL): SQL => sql`(${value} collate "C")`;

/** The key text is sorted by, computed as the query runs (small tables, computed values). */
export const sortKey = (value: AnyPgColumn | SQL): SQL => byCodePoint(folded(value));

/**
 * A person's label ("first last") and its sort key, from the sort keys the table keeps
 * (`first_name_sort`, `last_name_sort`): folding leaves spaces where they are, so the key is the
 * same text as sortKey(label), with nothing folded as the query runs.
 */
export const personLabel = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn; firstNameSort: AnyPgColumn; lastNameSort: AnyPgColumn }) => ({
  label: sql`trim(${t.firstName} || ' ' || ${t.lastName})`,
  labelSort: byCodePoint(sql`trim(${t.firstNameSort} || ' ' || ${t.lastNameSort})`),
});

/**
 * `<column>_sort`: the folded key of a text column, kept by the database on every write, for
 * tables that grow (folding costs a few microseconds a value, too much for thousands of rows
 * each page). Lists order by byCodePoint() of it; indexes hold that same expression.
 */
export const sortKeyColumn = (column: string) => text(`${column}_sort`).generatedAlwaysAs(folded(sql`${sql.identifier(column)}`));

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
  return pgTable(name, columns, (t) => [
    primaryKey({ columns: [t.tenantId, t[ownerKey], t[otherKey]] }),
    index(`${name}_${otherColumn.replace(/_id$/, '')}_idx`).on(t.tenantId, t[otherKey]),
    foreignKey({ columns: [t.tenantId, t[ownerKey]], foreignColumns: [ownerTable().tenantId, ownerTable().id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t[otherKey]], foreignColumns: [otherTable().tenantId, otherTable().id] }).onDelete('cascade'),
  ]);
}
