// Who may do what with custom entities: definitions are ROOT's alone; records are kept by
// ROOT, ADMIN and SECRETARY and read by TEACHER; the runtime declarations follow the same
// rule. An entity of one centre is invisible on another, by slug, by id and in every list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Row = Record<string, any>;
const A = 'centa';
const B = 'centb';
const ROLES = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'] as const;
type Role = (typeof ROLES)[number];

const definition = (slug: string) => ({
  slug,
  name_el: 'Εκδρομή',
  name_en: 'Trip',
  name_plural_el: 'Εκδρομές',
  name_plural_en: 'Trips',
  fields: [{ key: 'place', label_el: 'Τόπος', label_en: 'Place', type: 'TEXT', required: true }],
});

describe.each(DATABASE_KINDS)('custom entity access on %s', (kind) => {
  let t: TestApp;
  const tokens = {} as Record<Role, string>;
  let rootB: string;
  let entityId: number;
  let recordId: number;

  const as = (role: Role, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: tokens[role], tenant: A });

  beforeAll(async () => {
    t = await startApp(kind);
    const { admin } = await t.createTenant(A);
    await t.createTenant(B);
    tokens.ROOT = (await t.signIn(t.root.username, t.root.password, A)).token;
    rootB = (await t.signIn(t.root.username, t.root.password, B)).token;
    tokens.ADMIN = admin.token;
    tokens.SECRETARY = (await t.createUser(admin.token, { role: 'SECRETARY', tenant: A })).token;
    const teacher = await t.request({
      method: 'POST',
      url: '/api/teachers',
      token: admin.token,
      tenant: A,
      body: { first_name: 'Ελένη', last_name: 'Δασκάλου', username: 'eleni.t', password: 'teacher-pass-1', confirm_password: 'teacher-pass-1' },
    });
    expectStatus(teacher, 201);
    tokens.TEACHER = (await t.signIn('eleni.t', 'teacher-pass-1', A)).token;
    const made = await as('ROOT', 'POST', '/api/custom-entities', definition('trips'));
    expectStatus(made, 201);
    entityId = json(made).id;
    const rec = await as('ROOT', 'POST', '/api/custom-entities/trips/records', { place: 'Δελφοί' });
    expectStatus(rec, 201);
    recordId = json(rec).id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(ROLES.filter((r) => r !== 'ROOT'))('definitions are ROOT only: %s is refused every route', async (role) => {
    expectError(await as(role, 'GET', '/api/custom-entities'), 403, 'forbidden');
    expectError(await as(role, 'GET', `/api/custom-entities/${entityId}`), 403, 'forbidden');
    expectError(await as(role, 'POST', '/api/custom-entities', definition('other')), 403, 'forbidden');
    expectError(await as(role, 'PATCH', `/api/custom-entities/${entityId}`, { version: 1, name_el: 'Χ' }), 403, 'forbidden');
    expectError(await as(role, 'DELETE', `/api/custom-entities/${entityId}`), 403, 'forbidden');
    const still = json(await as('ROOT', 'GET', `/api/custom-entities/${entityId}`)).data;
    expect(still).toMatchObject({ name_el: 'Εκδρομή', version: 1 });
  });

  it.each(['ROOT', 'ADMIN', 'SECRETARY'] as const)('%s lists, reads, creates, changes and deletes records', async (role) => {
    expectStatus(await as(role, 'GET', '/api/custom-entities/trips/records'), 200);
    expectStatus(await as(role, 'GET', `/api/custom-entities/trips/records/${recordId}`), 200);
    const made = await as(role, 'POST', '/api/custom-entities/trips/records', { place: `Από ${role}` });
    expectStatus(made, 201);
    const row = json(made).data;
    expectStatus(await as(role, 'PATCH', `/api/custom-entities/trips/records/${row.id}`, { version: row.version, place: 'Ναύπλιο' }), 200);
    expectStatus(await as(role, 'POST', '/api/custom-entities/trips/records/import', { rows: [{ place: 'Όλυμπος' }], dry_run: true }), 200);
    expectStatus(await as(role, 'DELETE', `/api/custom-entities/trips/records/${row.id}`), 204);
  });

  it('TEACHER reads records and changes none', async () => {
    const list = await as('TEACHER', 'GET', '/api/custom-entities/trips/records');
    expectStatus(list, 200);
    expect(json(list).data.map((r: Row) => r.place)).toEqual(['Δελφοί']);
    expectStatus(await as('TEACHER', 'GET', `/api/custom-entities/trips/records/${recordId}`), 200);
    expectError(await as('TEACHER', 'POST', '/api/custom-entities/trips/records', { place: 'Χ' }), 403, 'forbidden');
    expectError(await as('TEACHER', 'PATCH', `/api/custom-entities/trips/records/${recordId}`, { version: 1, place: 'Χ' }), 403, 'forbidden');
    expectError(await as('TEACHER', 'DELETE', `/api/custom-entities/trips/records/${recordId}`), 403, 'forbidden');
    expectError(await as('TEACHER', 'POST', '/api/custom-entities/trips/records/import', { rows: [{ place: 'Χ' }] }), 403, 'forbidden');
    expectStatus(await as('TEACHER', 'GET', `/api/history?entity=custom:trips&entity_id=${recordId}`), 200);
    expect(json(await as('ROOT', 'GET', `/api/custom-entities/trips/records/${recordId}`)).data).toMatchObject({ place: 'Δελφοί', version: 1 });
  });

  it.each(ROLES)('%s gets the runtime declaration of the entity', async (role) => {
    const res = await as(role, 'GET', '/api/resources/runtime');
    expectStatus(res, 200);
    expect(json(res).data.map((d: Row) => d.name)).toEqual(['custom-entities/trips/records']);
  });

  it('without a session nothing answers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/custom-entities/trips/records', tenant: A });
    expect(res.statusCode, show(res)).toBe(401);
  });

  it("centre A's entity is invisible on centre B", async () => {
    const b = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: rootB, tenant: B });
    expect(json(await b('GET', '/api/custom-entities')).data).toEqual([]);
    expectError(await b('GET', `/api/custom-entities/${entityId}`), 404, 'not-found');
    expectError(await b('GET', '/api/custom-entities/trips'), 404, 'not-found');
    expectError(await b('PATCH', `/api/custom-entities/${entityId}`, { version: 1, name_el: 'Χ' }), 404, 'not-found');
    expectError(await b('DELETE', `/api/custom-entities/${entityId}?with_records=true`), 404, 'not-found');
    expectError(await b('GET', '/api/custom-entities/trips/records'), 404, 'not-found');
    expectError(await b('GET', `/api/custom-entities/trips/records/${recordId}`), 404, 'not-found');
    expect(json(await b('GET', '/api/resources/runtime')).data).toEqual([]);
    // B may take the same slug for its own entity, which A never sees.
    expectStatus(await b('POST', '/api/custom-entities', definition('trips')), 201);
    expectStatus(await b('POST', '/api/custom-entities/trips/records', { place: 'Μετέωρα' }), 201);
    expect(json(await as('ROOT', 'GET', '/api/custom-entities/trips/records')).data.map((r: Row) => r.place)).toEqual(['Δελφοί']);
    // A's token is not valid on B.
    const cross = await t.request({ method: 'GET', url: '/api/custom-entities/trips/records', token: tokens.ADMIN, tenant: B });
    expect(cross.statusCode, show(cross)).toBeGreaterThanOrEqual(400);
    expect(cross.body).not.toContain('Δελφοί');
  });

  it("a student outside TEACHER's classes is a label without a name in her list, as in her single read", async () => {
    const marks = await as('ROOT', 'POST', '/api/custom-entities', {
      ...definition('marks'),
      fields: [
        { key: 'note', label_el: 'Σημείωση', label_en: 'Note', type: 'TEXT', required: true },
        { key: 'student', label_el: 'Μαθητής', label_en: 'Student', type: 'REFERENCE', target: 'students' },
      ],
    });
    expectStatus(marks, 201);
    try {
      const student = await as('ADMIN', 'POST', '/api/students', { first_name: 'Σοφία', last_name: 'Ξένη' });
      expectStatus(student, 201);
      const id = json(student).id as number;
      expectStatus(await as('ADMIN', 'POST', '/api/custom-entities/marks/records', { note: 'Καλή πρόοδος', student: id }), 201);
      for (const [role, name] of [
        ['ADMIN', 'Σοφία Ξένη'],
        ['TEACHER', null],
        ['ADMIN', 'Σοφία Ξένη'],
        ['TEACHER', null],
      ] as const) {
        const list = await as(role, 'GET', '/api/custom-entities/marks/records');
        expectStatus(list, 200);
        const [row] = json(list).data as Row[];
        expect(row).toMatchObject({ note: 'Καλή πρόοδος', student: id, student_label: { id, name } });
        expect(row).toEqual(json(await as(role, 'GET', `/api/custom-entities/marks/records/${row!.id}`)).data);
      }
    } finally {
      expectStatus(await as('ROOT', 'DELETE', `/api/custom-entities/${json(marks).id}?with_records=true`), 204);
    }
  });
});
