// A declaration in domain/resources/ is all the domain needs: every ResourceDef a file of that
// folder exports is collected into RESOURCES and importable by name from its index, whichever
// file holds it, and the order rows are created in follows from the declarations' references.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineResource, type ResourceDef } from '../../domain/fields';
import * as index from '../../domain/resources/index';
import { creationOrder, RESOURCES, ROOMS } from '../../domain/resources/index';

const FOLDER = new URL('../../domain/resources/', import.meta.url);
const isDeclaration = (value: unknown): value is ResourceDef => typeof value === 'object' && value !== null && 'fields' in value && 'screen' in value;

describe('the declarations of domain/resources/', () => {
  const files = readdirSync(FOLDER).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'declarations.ts');

  it.each(files)('%s: each declaration it exports is a resource, exported by name from the index', async (file) => {
    const module: Record<string, unknown> = await import(new URL(file, FOLDER).href);
    const declared = Object.entries(module).filter(([, value]) => isDeclaration(value));
    expect(declared.length, `${file} declares no resource`).toBeGreaterThan(0);
    for (const [name, def] of declared) {
      expect(RESOURCES[(def as ResourceDef).name], name).toBe(def);
      expect((index as Record<string, unknown>)[name], name).toBe(def);
    }
  });

  it('RESOURCES holds nothing but what those files declare', async () => {
    const all = await Promise.all(files.map(async (file) => Object.values(await import(new URL(file, FOLDER).href)).filter(isDeclaration)));
    expect(Object.values(RESOURCES).sort((a, b) => a.name.localeCompare(b.name))).toEqual(all.flat().sort((a, b) => a.name.localeCompare(b.name)));
  });
});

describe('creationOrder', () => {
  const HOLIDAYS = defineResource({
    name: 'holidays',
    area: 'categories',
    fields: [
      { name: 'name', type: 'TEXT', required: true, max: 100 },
      { name: 'room_id', type: 'REFERENCE', reference: 'rooms' },
    ],
    defaultSort: [{ field: 'name', order: 'asc' }],
    screen: { route: '/holidays/', entity: 'holiday', modes: ['create', 'update'] },
  });

  it('puts every resource after those its REFERENCE fields point at, a new one too', () => {
    const order = creationOrder([HOLIDAYS, ...Object.values(RESOURCES)]).map((d) => d.name);
    expect(order.length).toBe(Object.keys(RESOURCES).length + 1);
    for (const def of [HOLIDAYS, ...Object.values(RESOURCES)])
      for (const field of def.fields.filter((f) => f.type === 'REFERENCE' && f.reference !== def.name))
        expect(order.indexOf(field.reference!), `${def.name}.${field.name}`).toBeLessThan(order.indexOf(def.name));
    expect(order.indexOf(ROOMS.name)).toBeLessThan(order.indexOf('holidays'));
  });

  it('breaks a circle of links at the resource that waits for the fewest: a class before the students it lists', () => {
    const order = creationOrder(Object.values(RESOURCES)).map((d) => d.name);
    expect(order.indexOf('classes')).toBeLessThan(order.indexOf('students'));
  });
});
