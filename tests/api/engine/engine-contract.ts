// The record engine's contract, the same for every store (server/engine/store.ts): what a
// client of any resource's routes may rely on, whether its rows live in a table of their own
// (a built-in resource) or among a custom entity's records. engine-contract.test.ts runs it
// against one of each, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { entityField } from '../../../bench/exam-entity';
import { startApp, type DatabaseKind, type TestApp } from '../support/harness';

type Row = Record<string, any>;

/** One resource under test: its rows are named (`name`, TEXT, required, searchable) and sized (`capacity`, whole NUMBER). */
interface ContractSubject {
  title: string;
  /** The collection's URL: `/api/rooms`, `/api/custom-entities/halls/records`. */
  base: string;
  /** The resource as its history and a reference name it: `rooms`, `custom:halls`. */
  history: string;
  target: string;
  /** Creates what the resource needs (a custom entity's definition), as the caller `call` is. */
  setup?(call: Call): Promise<void>;
}

type Call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => ReturnType<TestApp['request']>;

/** The keys an answer's row may carry: the system fields and the two declared ones. */
const NAMED = new Set(['id', 'version', 'created_at', 'updated_at', 'name', 'capacity']);

export function engineContract(kind: DatabaseKind, subject: ContractSubject) {
  describe(`${subject.title} on ${kind}`, () => {
    const tenant = `contract-${subject.title.replace(/[^a-z]/g, '')}`.slice(0, 30);
    let t: TestApp;
    let root: string;
    const call: Call = (method, url, body) => t.request({ method, url, body, token: root, tenant });
    const holders = '/api/custom-entities/holders/records';
    const create = async (body: Row) => {
      const res = await call('POST', subject.base, body);
      expect(res.statusCode, show(res)).toBe(201);
      return json(res) as { id: number; data: Row };
    };
    const count = async () => json(await call('GET', `${subject.base}?_end=1`)).total as number;

    beforeAll(async () => {
      t = await startApp(kind);
      await t.createTenant(tenant);
      root = (await t.signIn(t.root.username, t.root.password, tenant)).token;
      await subject.setup?.(call);
      // Records that point at the subject's rows: a row so held is in use.
      const res = await call('POST', '/api/custom-entities', {
        slug: 'holders',
        name_el: 'Κάτοχος',
        name_en: 'Holder',
        name_plural_el: 'Κάτοχοι',
        name_plural_en: 'Holders',
        fields: [entityField('title', 'TEXT', { required: true }), entityField('place', 'REFERENCE', { target: subject.target })],
      });
      expectStatus(res, 201);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    it('a create answers 201 {id, data} and the row reads back the same, with only named fields', async () => {
      const made = await create({ name: 'Αίθουσα Α', capacity: 12 });
      expect(made.data).toMatchObject({ id: made.id, version: expect.any(Number), name: 'Αίθουσα Α', capacity: 12 });
      for (const key of Object.keys(made.data)) expect(NAMED, key).toContain(key);
      const read = await call('GET', `${subject.base}/${made.id}`);
      expectStatus(read, 200);
      expect(json(read).data).toEqual(made.data);
    });

    it('a list pages, sorts, filters and searches, and tells the total in X-Total-Count', async () => {
      const names = ['Ωδείο', 'Άλφα', 'Βήτα', 'γάμμα', 'Δέλτα'];
      for (const [i, name] of names.entries()) await create({ name: `Λίστα ${name}`, capacity: 100 + i });
      const page = (query: string) => call('GET', `${subject.base}?${query}`);
      let res = await page('q=λιστα&_sort=name&_order=asc&_start=0&_end=2');
      expectStatus(res, 200);
      expect(json(res).total).toBe(5);
      expect(res.headers['x-total-count']).toBe('5');
      expect(json(res).data.map((r: Row) => r.name)).toEqual(['Λίστα Άλφα', 'Λίστα Βήτα']);
      for (const row of json(res).data as Row[]) for (const key of Object.keys(row)) expect(NAMED, key).toContain(key);
      res = await page('q=λιστα&_sort=name&_order=asc&_start=2&_end=5');
      expect(json(res).data.map((r: Row) => r.name)).toEqual(['Λίστα γάμμα', 'Λίστα Δέλτα', 'Λίστα Ωδείο']);
      res = await page('q=λιστα&_sort=capacity&_order=desc&capacity_gte=102');
      expect(json(res).data.map((r: Row) => r.capacity)).toEqual([104, 103, 102]);
      expect(res.headers['x-total-count']).toBe('3');
      res = await page('capacity=101');
      expect(json(res).data.map((r: Row) => r.name)).toEqual(['Λίστα Άλφα']);
      expectError(await page('nope=1'), 400, 'validation');
    });

    it('an update needs the current version: the old one is 409 stale and changes nothing', async () => {
      const made = await create({ name: 'Αλλαγή', capacity: 5 });
      const res = await call('PATCH', `${subject.base}/${made.id}`, { capacity: 6, version: made.data.version });
      expectStatus(res, 200);
      expect(json(res).data).toMatchObject({ name: 'Αλλαγή', capacity: 6, version: made.data.version + 1 });
      expectError(await call('PATCH', `${subject.base}/${made.id}`, { capacity: 7, version: made.data.version }), 409, 'stale');
      expect(json(await call('GET', `${subject.base}/${made.id}`)).data).toMatchObject({ capacity: 6, version: made.data.version + 1 });
    });

    it('a bad body is 400 naming its fields, and nothing is stored', async () => {
      const before = await count();
      expectError(await call('POST', subject.base, { capacity: 3 }), 400, 'validation', { name: 'required' });
      const body = expectError(await call('POST', subject.base, { name: 'Κακή', capacity: 'πολλές' }), 400, 'validation');
      expect(Object.keys(body.error.fields)).toEqual(['capacity']);
      expectError(await call('POST', subject.base, { name: 'Κακή', unknown_field: 1 }), 400, 'validation');
      expect(await count()).toBe(before);
      const made = await create({ name: 'Σωστή', capacity: 3 });
      expectError(await call('PATCH', `${subject.base}/${made.id}`, { capacity: 'x', version: made.data.version }), 400, 'validation', {
        capacity: expect.any(String),
      });
      expect(json(await call('GET', `${subject.base}/${made.id}`)).data.capacity).toBe(3);
    });

    it('a row that is not there is 404 on read, update and delete', async () => {
      for (const id of [2_000_000_000, 0, 'abc']) {
        expectError(await call('GET', `${subject.base}/${id}`), 404, 'not-found');
        expectError(await call('PATCH', `${subject.base}/${id}`, { capacity: 1, version: 0 }), 404, 'not-found');
        expectError(await call('DELETE', `${subject.base}/${id}`), 404, 'not-found');
      }
    });

    it('a held row is 409 in-use naming who holds it and stays; once free, delete is 204 and it is gone', async () => {
      const made = await create({ name: 'Κρατημένη', capacity: 9 });
      const holder = json(await call('POST', holders, { title: 'Κάτοχος 1', place: made.id }));
      expect(holder.data.place).toBe(made.id);
      const body = expectError(await call('DELETE', `${subject.base}/${made.id}`), 409, 'in-use');
      expect(body.error.details).toMatchObject({ reason: 'used-by', count: 1, uses: { 'custom-entities/holders/records': 1 } });
      expectStatus(await call('GET', `${subject.base}/${made.id}`), 200);
      expectStatus(await call('DELETE', `${holders}/${holder.id}`), 204);
      expectStatus(await call('DELETE', `${subject.base}/${made.id}`), 204);
      expectError(await call('GET', `${subject.base}/${made.id}`), 404, 'not-found');
    });

    it('every write is in the history, and a reference to a row is labelled with its name', async () => {
      const made = await create({ name: 'Ιστορία', capacity: 1 });
      await call('PATCH', `${subject.base}/${made.id}`, { name: 'Ιστορία Β', version: made.data.version });
      const holder = json(await call('POST', holders, { title: 'Κάτοχος 2', place: made.id }));
      expectStatus(await call('DELETE', `${holders}/${holder.id}`), 204);
      const own = json(await call('GET', `/api/history?entity=${subject.history}&entity_id=${made.id}`)).data as Row[];
      expect(own.map((h) => h.action)).toEqual(['update', 'create']);
      expect(own[0]!.changes.name).toMatchObject({ old: 'Ιστορία', new: 'Ιστορία Β' });
      const held = json(await call('GET', `/api/history?entity=custom:holders&entity_id=${holder.id}`)).data as Row[];
      expect(held.map((h) => h.action)).toEqual(['delete', 'create']);
      expect(held[1]!.changes.place).toMatchObject({ new: made.id, labels: { new: { id: made.id, name: 'Ιστορία Β' } } });
    });

    it('an import creates every row or none, and reports the bad ones by row', async () => {
      const before = await count();
      const url = `${subject.base}/import`;
      const refused = expectError(
        await call('POST', url, { rows: [{ name: 'Εισ 1', capacity: 1 }, { capacity: 2 }, { name: 'Εισ 3', capacity: 'x' }] }),
        400,
        'validation',
      );
      expect(refused.error.details.errors.map((e: Row) => e.row)).toEqual([1, 2]);
      expect(refused.error.details.errors[0].fields).toMatchObject({ name: 'required' });
      expect(Object.keys(refused.error.details.errors[1].fields)).toEqual(['capacity']);
      expect(await count()).toBe(before);
      let res = await call('POST', url, { rows: [{ name: 'Εισ 1', capacity: 1 }, { capacity: 2 }], skip_invalid: true, dry_run: true });
      expectStatus(res, 200);
      expect(json(res)).toMatchObject({ created: 1, skipped: 1 });
      expect(await count()).toBe(before);
      res = await call('POST', url, { rows: [{ name: 'Εισ 1', capacity: 1 }, { capacity: 2 }, { name: 'Εισ 3', capacity: 3 }], skip_invalid: true });
      expectStatus(res, 200);
      expect(json(res)).toEqual({ created: 2, skipped: 1, errors: [{ row: 1, fields: { name: 'required' } }] });
      expect(await count()).toBe(before + 2);
      const imported = json(await call('GET', `${subject.base}?q=εισ&_sort=name`)).data as Row[];
      expect(imported.map((r) => [r.name, r.capacity])).toEqual([
        ['Εισ 1', 1],
        ['Εισ 3', 3],
      ]);
      const history = json(await call('GET', `/api/history?entity=${subject.history}&entity_id=${imported[0]!.id}`)).data as Row[];
      expect(history.map((h) => h.action)).toEqual(['create']);
    });
  });
}
