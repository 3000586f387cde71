// Custom entity definitions: ROOT defines a record type; slugs and keys that are reserved or
// taken are refused; every change of the fields that stored records would not survive is
// 409 in-use naming the field and the count; relabelling always passes; removing a field
// with values needs discard_values; deleting an entity with records needs with_records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Row = Record<string, any>;
const TENANT = 'centity';

const field = (key: string, type: string, extra: Row = {}) => ({ key, label_el: `Ελ ${key}`, label_en: `En ${key}`, type, ...extra });
const entity = (slug: string, fields: Row[], extra: Row = {}) => ({
  slug,
  name_el: 'Εξέταση',
  name_en: 'Exam',
  name_plural_el: 'Εξετάσεις',
  name_plural_en: 'Exams',
  icon: 'BookOutlined',
  fields,
  ...extra,
});

describe.each(DATABASE_KINDS)('custom entity definitions on %s', (kind) => {
  let t: TestApp;
  let root: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: root, tenant: TENANT });
  const define = async (body: Row) => {
    const res = await call('POST', '/api/custom-entities', body);
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };
  const add = async (slug: string, body: Row) => {
    const res = await call('POST', `/api/custom-entities/${slug}/records`, body);
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    await t.createTenant(TENANT);
    root = (await t.signIn(t.root.username, t.root.password, TENANT)).token;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a definition is created, listed, read by id or slug, and answered with every field', async () => {
    const made = await define(
      entity('exams', [
        field('title', 'TEXT', { required: true, searchable: true }),
        field('grade', 'NUMBER'),
        field('held_on', 'DATE'),
        field('subject', 'SINGLE_CHOICE', { options: ['Μαθηματικά', 'Φυσική'] }),
        field('tags', 'MULTIPLE_CHOICE', { options: ['α', 'β'] }),
        field('passed', 'BOOLEAN'),
        field('student', 'REFERENCE', { target: 'students' }),
      ]),
    );
    expect(made).toMatchObject({ slug: 'exams', name_el: 'Εξέταση', version: 1, icon: 'BookOutlined', group: null });
    expect(made.fields.map((f: Row) => [f.key, f.position, f.required, f.shown_in_list])).toEqual([
      ['title', 0, true, true],
      ['grade', 1, false, true],
      ['held_on', 2, false, true],
      ['subject', 3, false, true],
      ['tags', 4, false, true],
      ['passed', 5, false, true],
      ['student', 6, false, true],
    ]);
    const list = await call('GET', '/api/custom-entities?q=εξεταση');
    expectStatus(list, 200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(json(list).data.map((e: Row) => e.slug)).toEqual(['exams']);
    expect(json(await call('GET', `/api/custom-entities/${made.id}`)).data.slug).toBe('exams');
    expect(json(await call('GET', '/api/custom-entities/exams')).data.id).toBe(made.id);
    expectError(await call('GET', '/api/custom-entities/99999'), 404, 'not-found');
  });

  it.each(['students', 'new', '__proto__', 'constructor', 'builder', 'api', 'entity', 'rooms'])('slug %s is reserved', async (slug) => {
    expectError(await call('POST', '/api/custom-entities', entity(slug, [field('a', 'TEXT')])), 400, 'validation', { slug: 'reserved' });
  });

  it.each(['../x', 'Exams', '1abc', 'a', 'with space', 'x'.repeat(41), 'ελληνικά'])('slug %s is not a slug', async (slug) => {
    const body = expectError(await call('POST', '/api/custom-entities', entity(slug, [field('a', 'TEXT')])), 400, 'validation');
    expect(body.error.fields.slug, show(await call('GET', '/api/custom-entities'))).toBeDefined();
  });

  it('a taken slug is 409 duplicate', async () => {
    await define(entity('trips', [field('place', 'TEXT')]));
    expectError(await call('POST', '/api/custom-entities', entity('trips', [field('place', 'TEXT')])), 409, 'conflict', { slug: 'duplicate' });
  });

  it.each(['id', 'version', 'created_at', 'updated_at', 'tenant_id', '__proto__', 'constructor', 'toString'])('field key %s is refused', async (key) => {
    const res = await call('POST', '/api/custom-entities', entity('keytest', [field(key, 'TEXT')]));
    const body = expectError(res, 400, 'validation');
    expect(body.error.fields['fields.0.key'], show(res)).toMatch(/^(reserved|invalid-format)$/);
  });

  it('field keys collide, options and targets must fit the type, 1..50 fields', async () => {
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('a', 'TEXT'), field('a', 'NUMBER')])), 400, 'validation', {
      'fields.1.key': 'duplicate',
    });
    expectError(
      await call('POST', '/api/custom-entities', entity('coll', [field('who', 'REFERENCE', { target: 'students' }), field('who_label', 'TEXT')])),
      400,
      'validation',
      {
        'fields.1.key': 'duplicate',
      },
    );
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('c', 'SINGLE_CHOICE')])), 400, 'validation', {
      'fields.0.options': 'required',
    });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('c', 'TEXT', { options: ['x'] })])), 400, 'validation', {
      'fields.0.options': 'invalid',
    });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('r', 'REFERENCE')])), 400, 'validation', { 'fields.0.target': 'required' });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('r', 'REFERENCE', { target: 'payments' })])), 400, 'validation', {
      'fields.0.target': 'invalid-option',
    });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('r', 'REFERENCE', { target: 'custom:nosuch' })])), 400, 'validation', {
      'fields.0.target': 'invalid-option',
    });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('x', 'COLOR')])), 400, 'validation', { 'fields.0.type': 'invalid-option' });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [])), 400, 'validation', { fields: 'too-short' });
    const many = Array.from({ length: 51 }, (_, i) => field(`f${i}`, 'TEXT'));
    expectError(await call('POST', '/api/custom-entities', entity('coll', many)), 400, 'validation', { fields: 'too-long' });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('a', 'TEXT')], { icon: 'NoSuchIcon' })), 400, 'validation', {
      icon: 'invalid-option',
    });
    expectError(await call('POST', '/api/custom-entities', entity('coll', [field('a', 'TEXT')], { extra: 1 })), 400, 'validation', { extra: 'unknown-field' });
    expectError(await call('GET', '/api/custom-entities/coll'), 404, 'not-found');
  });

  it('a reference to another custom entity (or to itself) is accepted', async () => {
    await define(
      entity('rooms-booked', [field('trip', 'REFERENCE', { target: 'custom:trips' }), field('parent', 'REFERENCE', { target: 'custom:rooms-booked' })]),
    );
    // The referenced entity cannot go while a field points at it.
    const trips = json(await call('GET', '/api/custom-entities/trips')).data;
    expectError(await call('DELETE', `/api/custom-entities/${trips.id}`), 409, 'in-use');
  });

  it('in-use rules: type change, option removed, made required, field removed; relabel passes; stale version is 409', async () => {
    let def = await define(
      entity('loans', [
        field('book', 'TEXT', { required: true }),
        field('copies', 'NUMBER'),
        field('kind', 'SINGLE_CHOICE', { options: ['short', 'long'] }),
        field('notes', 'TEXT'),
      ]),
    );
    await add('loans', { book: 'Οδύσσεια', copies: 2, kind: 'long', notes: 'κάτι' });
    await add('loans', { book: 'Ιλιάδα' });
    const patch = async (body: Row) => call('PATCH', `/api/custom-entities/${def.id}`, { version: def.version, ...body });
    const fieldsWith = (change: (f: Row) => Row | null) => def.fields.map((f: Row) => change({ ...f })).filter(Boolean);

    // A type change with values.
    let body = expectError(await patch({ fields: fieldsWith((f) => (f.key === 'copies' ? { ...f, type: 'TEXT' } : f)) }), 409, 'in-use');
    expect(body.error.details).toMatchObject({ count: 1, field: 'copies' });
    // An option in use removed.
    body = expectError(await patch({ fields: fieldsWith((f) => (f.key === 'kind' ? { ...f, options: ['short'] } : f)) }), 409, 'in-use');
    expect(body.error.details).toMatchObject({ count: 1, field: 'kind' });
    // Made required while a record lacks it.
    body = expectError(await patch({ fields: fieldsWith((f) => (f.key === 'copies' ? { ...f, required: true } : f)) }), 409, 'in-use');
    expect(body.error.details).toMatchObject({ count: 1, field: 'copies' });
    // A new required field: every stored record lacks it.
    body = expectError(await patch({ fields: [...def.fields, field('due', 'DATE', { required: true })] }), 409, 'in-use');
    expect(body.error.details).toMatchObject({ count: 2, field: 'due' });
    // Removing a field with values needs discard_values.
    body = expectError(await patch({ fields: fieldsWith((f) => (f.key === 'notes' ? null : f)) }), 409, 'in-use');
    expect(body.error.details).toMatchObject({ count: 1, field: 'notes' });
    // Nothing changed so far.
    const still = json(await call('GET', `/api/custom-entities/${def.id}`)).data;
    expect(still.version).toBe(def.version);
    expect(json(await call('GET', '/api/custom-entities/loans/records?_sort=book')).data.map((r: Row) => [r.book, r.copies, r.kind, r.notes])).toEqual([
      ['Ιλιάδα', null, null, null],
      ['Οδύσσεια', 2, 'long', 'κάτι'],
    ]);

    // Relabelling, reordering, an option added and a new optional field pass.
    let res = await patch({
      name_el: 'Δανεισμός',
      fields: [
        ...fieldsWith((f) =>
          f.key === 'kind' ? { ...f, label_el: 'Είδος', options: ['short', 'long', 'weekend'], position: 0 } : { ...f, position: f.position + 1 },
        ),
        field('due', 'DATE'),
      ],
    });
    expectStatus(res, 200);
    def = json(res).data;
    expect(def.name_el).toBe('Δανεισμός');
    expect(def.fields[0].key).toBe('kind');
    // A stale version is refused.
    expectError(await call('PATCH', `/api/custom-entities/${def.id}`, { version: def.version - 1, name_el: 'Χ' }), 409, 'stale');
    // The slug never changes.
    expectError(await patch({ slug: 'other' }), 400, 'validation', { slug: 'invalid' });

    // Discarding the values of a removed field, recorded in the record's history.
    res = await patch({ fields: fieldsWith((f) => (f.key === 'notes' ? null : f)), discard_values: ['notes'] });
    expectStatus(res, 200);
    def = json(res).data;
    const rows = json(await call('GET', '/api/custom-entities/loans/records?_sort=book')).data;
    expect(rows.map((r: Row) => 'notes' in r)).toEqual([false, false]);
    const odyssey = rows.find((r: Row) => r.book === 'Οδύσσεια');
    const history = json(await call('GET', `/api/history?entity=custom:loans&entity_id=${odyssey.id}`)).data;
    expect(history[0]).toMatchObject({ action: 'update', changes: { notes: { old: 'κάτι', new: null } } });

    // A change that every stored value fits passes: NUMBER made required once every record has one.
    const iliad = rows.find((r: Row) => r.book === 'Ιλιάδα');
    expectStatus(await call('PATCH', `/api/custom-entities/loans/records/${iliad.id}`, { version: iliad.version, copies: 1 }), 200);
    res = await patch({ fields: fieldsWith((f) => (f.key === 'copies' ? { ...f, required: true } : f)) });
    expectStatus(res, 200);
    def = json(res).data;

    // Deleting an entity with records needs with_records=true, and takes them with it.
    body = expectError(await call('DELETE', `/api/custom-entities/${def.id}`), 409, 'in-use');
    expect(body.error.details).toMatchObject({ reason: 'records-held', count: 2 });
    expectStatus(await call('DELETE', `/api/custom-entities/${def.id}?with_records=true`), 204);
    expectError(await call('GET', '/api/custom-entities/loans/records'), 404, 'not-found');
    const gone = json(await call('GET', `/api/history?entity=custom:loans&entity_id=${odyssey.id}`)).data;
    expect(gone[0].action).toBe('delete');
    const defHistory = json(await call('GET', `/api/history?entity=custom-entities&entity_id=${def.id}`)).data;
    expect(defHistory.map((h: Row) => h.action)).toEqual(['delete', 'update', 'update', 'update', 'create']);
  });

  it('an entity without records is deleted without with_records', async () => {
    const def = await define(entity('empty-one', [field('a', 'TEXT')]));
    expectStatus(await call('DELETE', `/api/custom-entities/${def.id}`), 204);
    expectError(await call('GET', `/api/custom-entities/${def.id}`), 404, 'not-found');
  });

  it('the runtime declarations describe every entity for the client', async () => {
    const res = await call('GET', '/api/resources/runtime');
    expectStatus(res, 200);
    const exams = json(res).data.find((d: Row) => d.name === 'custom-entities/exams/records');
    expect(exams).toMatchObject({
      area: 'customEntityRecords',
      screen: { route: '/custom-entities/entity/exams/', entity: 'custom_entity_instance', modes: ['create', 'update', 'view'], icon: 'BookOutlined' },
      labels: {
        el: { name: 'Εξέταση', plural: 'Εξετάσεις', fields: { title: 'Ελ title' } },
        en: { name: 'Exam', plural: 'Exams', fields: { grade: 'En grade' } },
      },
    });
    const byName = Object.fromEntries(exams.fields.map((f: Row) => [f.name, f]));
    expect(byName.student).toMatchObject({ type: 'REFERENCE', reference: 'students' });
    expect(byName.passed.type).toBe('BOOLEAN');
    expect(byName.tags).toMatchObject({ type: 'MULTIPLE_CHOICE', options: ['α', 'β'] });
    const booked = json(res).data.find((d: Row) => d.name === 'custom-entities/rooms-booked/records');
    expect(booked.fields[0]).toMatchObject({ name: 'trip', reference: 'custom-entities/trips/records' });
  });
});
