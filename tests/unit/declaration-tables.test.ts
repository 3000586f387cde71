// Every declared resource's table agrees with its declaration: each field has a column of the
// type its field type is stored as, NOT NULL exactly when required (or defaulted), a foreign key
// with tenant_id behind each REFERENCE, a join table behind each REFERENCES. A table written by
// hand that drifts from its declaration (a DATE kept in a text column) fails here.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type DrizzleSnapshotJSON, generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { date, foreignKey, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { createSchema, defineResource, type ResourceDef } from '../../domain/fields';
import { RESOURCES } from '../../domain/resources/index';
import { declarationProblems } from '../../server/db/declaration-check';
import { rowMeta } from '../../server/db/schema/columns';
import { declaredTable } from '../../server/db/schema/declared';
import { rooms } from '../../server/db/schema/directory';
import * as schema from '../../server/db/schema/index';
import { id, search, tenantId } from '../../server/db/schema/tenant-columns';
import { buildServerRegistry } from '../../server/registry';
import { tenantsSpec } from '../../server/modules/tenants/spec';
import { validBody } from '../api/support/declared-bodies';

const registry = buildServerRegistry();

const specOf = (def: ResourceDef) => registry.specs.get(def.name) ?? (def.name === tenantsSpec.def.name ? tenantsSpec : undefined);

/**
 * Disagreements known and kept, each with why; a new one fails. The series' repeat_every has
 * a declared default (so the API never stores null there) on a column older than the default;
 * making it NOT NULL is a migration of its own.
 */
const KNOWN: Record<string, readonly string[]> = {
  'recurring-lessons': ['recurring-lessons.repeat_every: the field is required or defaulted, the column nullable'],
};

describe.each(Object.values(RESOURCES).map((d) => [d.name, d] as const))('%s', (_name, def) => {
  it('has a table that agrees with its declaration', () => {
    const spec = specOf(def);
    expect(spec, `${def.name} has no server spec`).toBeDefined();
    expect(declarationProblems(def, spec!)).toEqual(KNOWN[def.name] ?? []);
  });
});

describe('the sidebar', () => {
  it('takes its order from the declarations: each has its own place', () => {
    const places = Object.values(RESOURCES).map((d) => d.screen.order);
    expect(places.every((p) => typeof p === 'number')).toBe(true);
    expect(new Set(places).size).toBe(places.length);
    expect(places).toEqual([...places].sort((a, b) => a! - b!));
  });
});

// The checker itself, on tables written to disagree.
const HOLIDAYS = defineResource({
  name: 'holidays',
  area: 'categories',
  fields: [
    { name: 'name', type: 'TEXT', required: true, max: 100, sortable: true, searchable: true },
    { name: 'date', type: 'DATE', sortable: true, filterable: true },
    { name: 'notes', type: 'LONG_TEXT' },
    { name: 'room_id', type: 'REFERENCE', reference: 'rooms', filterable: true },
  ],
  defaultSort: [{ field: 'date', order: 'asc' }],
  screen: { route: '/holidays/', entity: 'holiday', modes: ['create', 'update'], icon: 'calendar', order: 95 },
});
const keyed = { tenantId: tenantId(), id: id(), search: search(), ...rowMeta() };

describe('declarationProblems', () => {
  it('finds nothing wrong with the table declaredTable() derives', () => {
    expect(declarationProblems(HOLIDAYS, { table: declaredTable(HOLIDAYS, { rooms: () => rooms }) })).toEqual([]);
  });

  it('refuses a DATE field kept in a text column', () => {
    const table = pgTable('holidays', { ...keyed, name: text('name').notNull(), date: text('date'), notes: text('notes'), roomId: integer('room_id') }, (t) => [
      primaryKey({ columns: [t.tenantId, t.id] }),
      foreignKey({ columns: [t.tenantId, t.roomId], foreignColumns: [rooms.tenantId, rooms.id] }),
    ]);
    expect(declarationProblems(HOLIDAYS, { table })).toEqual(['holidays.date: a DATE field on a text column (wants date)']);
  });

  it('refuses a required field on a nullable column, a missing column and a reference without its foreign key', () => {
    const table = pgTable('holidays', { ...keyed, name: text('name'), date: date('date', { mode: 'string' }), roomId: integer('room_id') });
    expect(declarationProblems(HOLIDAYS, { table })).toEqual([
      'holidays.name: the field is required or defaulted, the column nullable',
      'holidays.notes: no column in holidays',
      'holidays.room_id: a REFERENCE without a foreign key including tenant_id',
    ]);
  });

  it('refuses a REFERENCES field without its join table', () => {
    const tagged = defineResource({ ...HOLIDAYS, fields: [{ name: 'tag_ids', type: 'REFERENCES', reference: 'lesson-tags' }] });
    expect(declarationProblems(tagged, { table: pgTable('holidays', keyed) })).toEqual(['holidays.tag_ids: a REFERENCES field without its join table']);
  });
});

// The bodies tests derive from declarations (tests/api/support/declared-bodies.ts) are valid ones.
describe.each(Object.values(RESOURCES).map((d) => [d.name, d] as const))('validBody of %s', (_name, def) => {
  const refs = Object.fromEntries(Object.keys(RESOURCES).map((name) => [name, 7]));
  it.each([false, true])('passes its create schema (every writable field: %s)', (full) => {
    const body = validBody(def, { tag: 'abc', refs, full });
    expect(createSchema(def).safeParse(body).error?.issues ?? []).toEqual([]);
  });
});

// The chain ends in the migrations: the schema (with its derived tables) is what the last
// generated snapshot holds, so `npm run db:generate` has nothing left to write.
it('the migrations hold the schema as declared: drizzle-kit finds nothing to generate', async () => {
  const folder = fileURLToPath(new URL('../../server/db/migrations/meta/', import.meta.url));
  const journal = JSON.parse(await readFile(`${folder}_journal.json`, 'utf8')) as { entries: { idx: number }[] };
  const last = String(journal.entries.at(-1)!.idx).padStart(4, '0');
  const snapshot = JSON.parse(await readFile(`${folder}${last}_snapshot.json`, 'utf8')) as DrizzleSnapshotJSON;
  expect(await generateMigration(snapshot, generateDrizzleJson({ ...schema }))).toEqual([]);
}, 60_000);
