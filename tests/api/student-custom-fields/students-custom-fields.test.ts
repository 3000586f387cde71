// Student custom fields:
// values validated by type on every student write (codes at custom_fields.<key>), kept across
// edits of other fields, filtered and sorted by key; definition changes that would break stored
// values refused 409 in-use, allowed ones accepted; key immutable; choice types need options;
// deleting a definition with values needs discard_values=true, recorded in each student's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('student custom fields on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createTenant']>>['admin'];
  const defs: Record<string, Row> = {};

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: admin.token, tenant: 'cfields', clientType: 'api' });
  const define = async (body: Row) => {
    const res = await call('POST', '/api/student-custom-fields', body);
    expect(res.statusCode, show(res)).toBe(201);
    defs[body.key] = json(res).data;
    return json(res).data as Row;
  };
  const student = async (custom_fields: Row | undefined, extra: Row = {}) => {
    const res = await call('POST', '/api/students', {
      first_name: 'Νίκος',
      last_name: 'Μαθητής',
      ...(custom_fields === undefined ? {} : { custom_fields }),
      ...extra,
    });
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };
  const get = async (resource: string, id: number) => json(await call('GET', `/api/${resource}/${id}`)).data as Row;
  const refusedCustom = (res: Response, key: string, code?: string) => {
    const body = expectError(res, 400, 'validation');
    const fields: Record<string, string> = body.error.fields ?? {};
    const hit = Object.entries(fields).find(([k]) => k === `custom_fields.${key}` || k.startsWith(`custom_fields.${key}.`));
    expect(hit, show(res)).toBeDefined();
    if (code) expect(hit![1], show(res)).toBe(code);
  };

  beforeAll(async () => {
    t = await startApp(kind);
    admin = (await t.createTenant('cfields')).admin;
    await define({ key: 'nickname', label: 'Παρατσούκλι', type: 'TEXT' });
    await define({ key: 'score', label: 'Βαθμός', type: 'NUMBER', position: 1 });
    await define({ key: 'enrolled_on', label: 'Εγγραφή', type: 'DATE', position: 2 });
    await define({ key: 'school', label: 'Σχολείο', type: 'SINGLE_CHOICE', options: ['Πρότυπο', 'Δημόσιο', 'Ιδιωτικό'], position: 3 });
    await define({ key: 'hobbies', label: 'Χόμπι', type: 'MULTIPLE_CHOICE', options: ['Σκάκι', 'Μπάσκετ', 'Μουσική'], position: 4 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('definitions: choice types need options, others take none; key format; key is immutable', async () => {
    expectError(await call('POST', '/api/student-custom-fields', { key: 'nochoice', label: 'Χ', type: 'SINGLE_CHOICE' }), 400, 'validation', {
      options: 'required',
    });
    expectError(await call('POST', '/api/student-custom-fields', { key: 'nochoice', label: 'Χ', type: 'MULTIPLE_CHOICE', options: [] }), 400, 'validation', {
      options: 'required',
    });
    expectError(await call('POST', '/api/student-custom-fields', { key: 'textopts', label: 'Χ', type: 'TEXT', options: ['α'] }), 400, 'validation', {
      options: 'invalid',
    });
    expectError(
      await call('POST', '/api/student-custom-fields', { key: 'dupopts', label: 'Χ', type: 'SINGLE_CHOICE', options: ['α', 'α'] }),
      400,
      'validation',
      { options: 'invalid' },
    );
    for (const key of ['Upper', '1abc', 'with-dash', 'x'.repeat(41), 'κλειδί']) {
      expectError(await call('POST', '/api/student-custom-fields', { key, label: 'Χ', type: 'TEXT' }), 400, 'validation', { key: 'invalid-format' });
    }
    // a second definition with the same key is refused, naming the key
    const dup = await call('POST', '/api/student-custom-fields', { key: 'nickname', label: 'Διπλό', type: 'TEXT' });
    expect([400, 409], show(dup)).toContain(dup.statusCode);
    expect(json(dup).error.fields?.key, show(dup)).toBeDefined();
    const d = defs.nickname;
    const res = await call('PATCH', `/api/student-custom-fields/${d.id}`, { key: 'renamed', version: d.version });
    expectError(res, 400, 'validation');
    expect(json(res).error.fields).toHaveProperty('key');
    expect(await get('student-custom-fields', d.id)).toEqual(d);
    const list = json(await call('GET', '/api/student-custom-fields?_end=200')).data.map((r: Row) => r.key);
    expect(list).toEqual(['nickname', 'score', 'enrolled_on', 'school', 'hobbies']); // position, then label
  });

  it('valid values of every type are stored and read back', async () => {
    const values = { nickname: 'Νίκος ο Μέγας', score: 17.5, enrolled_on: '2025-09-15', school: 'Πρότυπο', hobbies: ['Σκάκι', 'Μουσική'] };
    const s = await student(values);
    expect(s.custom_fields).toEqual(values);
    expect((await get('students', s.id)).custom_fields).toEqual(values);
    const partial = await student({ score: 3 });
    expect(partial.custom_fields).toMatchObject({ score: 3 });
    const none = await student(undefined);
    expect(none.custom_fields ?? {}).toEqual({});
  });

  it('each type refuses bad values on create and update with custom_fields.<key> codes, and nothing changes', async () => {
    const cases: Array<[Row, string, string | undefined]> = [
      [{ nickname: 42 }, 'nickname', 'invalid-type'],
      [{ nickname: 'x'.repeat(501) }, 'nickname', 'too-long'],
      [{ score: 'δεκαεπτά' }, 'score', 'invalid-type'],
      [{ score: '17' }, 'score', 'invalid-type'],
      [{ enrolled_on: '2025-02-30' }, 'enrolled_on', 'invalid-format'],
      [{ enrolled_on: '15/09/2025' }, 'enrolled_on', 'invalid-format'],
      [{ enrolled_on: 20250915 }, 'enrolled_on', undefined],
      [{ school: 'Άγνωστο' }, 'school', 'invalid-option'],
      [{ school: ['Πρότυπο'] }, 'school', undefined],
      [{ hobbies: ['Ποδόσφαιρο'] }, 'hobbies', undefined],
      [{ hobbies: ['Σκάκι', 'Σκάκι'] }, 'hobbies', undefined],
      [{ hobbies: 'Σκάκι' }, 'hobbies', 'invalid-type'],
      [{ nosuchkey: 'x' }, 'nosuchkey', 'unknown-field'],
    ];
    const before = json(await call('GET', '/api/students?_end=200')).total;
    const target = await student({ nickname: 'Σταθερός', score: 10 });
    const mismatches: string[] = [];
    for (const [custom_fields, key, code] of cases) {
      for (const res of [
        await call('POST', '/api/students', { first_name: 'Λάθος', last_name: 'Τιμή', custom_fields }),
        await call('PATCH', `/api/students/${target.id}`, { custom_fields, version: target.version }),
      ]) {
        const fields: Record<string, string> = res.statusCode === 400 ? (json(res).error?.fields ?? {}) : {};
        const hit = Object.entries(fields).find(([k]) => k === `custom_fields.${key}` || k.startsWith(`custom_fields.${key}.`));
        if (!hit || (code && hit[1] !== code)) mismatches.push(`${JSON.stringify(custom_fields)} -> ${show(res)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(json(await call('GET', '/api/students?_end=200')).total).toBe(before + 1);
    expect(await get('students', target.id)).toEqual(target);
    // custom_fields must be an object
    expectError(await call('POST', '/api/students', { first_name: 'Α', last_name: 'Β', custom_fields: ['x'] }), 400, 'validation', {
      custom_fields: 'invalid-type',
    });
  });

  it('values survive edits of other fields; sending custom_fields changes them', async () => {
    const s = await student({ nickname: 'Μένει', score: 12, hobbies: ['Μπάσκετ'] });
    const p = await call('PATCH', `/api/students/${s.id}`, { first_name: 'Άλλαξε', phone: '2101234567', version: s.version });
    expectStatus(p, 200);
    expect(json(p).data.custom_fields).toEqual(s.custom_fields);
    expect((await get('students', s.id)).custom_fields).toEqual(s.custom_fields);
    const p2 = await call('PATCH', `/api/students/${s.id}`, { custom_fields: { ...s.custom_fields, score: 19 }, version: json(p).data.version });
    expectStatus(p2, 200);
    expect(json(p2).data.custom_fields).toEqual({ ...s.custom_fields, score: 19 });
    const h = json(await call('GET', `/api/history?entity=students&entity_id=${s.id}`)).data;
    expect(h.map((e: Row) => e.action).sort()).toEqual(['create', 'update', 'update']);
  });

  it('a required definition makes its value required on student writes', async () => {
    const tenant = await t.createTenant('cfrequired');
    const req = (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) =>
      t.request({ method, url, body, token: tenant.admin.token, tenant: 'cfrequired', clientType: 'api' });
    expectStatus(await req('POST', '/api/student-custom-fields', { key: 'amka', label: 'ΑΜΚΑ', type: 'TEXT', required: true }), 201);
    refusedCustom(await req('POST', '/api/students', { first_name: 'Α', last_name: 'Β' }), 'amka', 'required');
    refusedCustom(await req('POST', '/api/students', { first_name: 'Α', last_name: 'Β', custom_fields: { amka: null } }), 'amka');
    refusedCustom(await req('POST', '/api/students', { first_name: 'Α', last_name: 'Β', custom_fields: { amka: '' } }), 'amka');
    const ok = await req('POST', '/api/students', { first_name: 'Α', last_name: 'Β', custom_fields: { amka: '01010112345' } });
    expectStatus(ok, 201);
    const s = json(ok).data;
    refusedCustom(await req('PATCH', `/api/students/${s.id}`, { custom_fields: {}, version: s.version }), 'amka', 'required');
    expectStatus(await req('PATCH', `/api/students/${s.id}`, { last_name: 'Γ', version: s.version }), 200);
    expect(json(await req('GET', '/api/students?_end=200')).total).toBe(1);
  });

  it('filters by custom field (custom_fields.<key>=v) and sorts by it, numbers numerically', async () => {
    const tenant = await t.createTenant('cfsort');
    const req = (url: string, body?: unknown) =>
      t.request({ method: body ? 'POST' : 'GET', url, body, token: tenant.admin.token, tenant: 'cfsort', clientType: 'api' });
    for (const d of [
      { key: 'score', label: 'Βαθμός', type: 'NUMBER' },
      { key: 'nickname', label: 'Όνομα', type: 'TEXT' },
      { key: 'since', label: 'Από', type: 'DATE' },
      { key: 'school', label: 'Σχολείο', type: 'SINGLE_CHOICE', options: ['Α', 'Β', 'Γ'] },
      { key: 'hobbies', label: 'Χόμπι', type: 'MULTIPLE_CHOICE', options: ['Σκάκι', 'Μπάσκετ'] },
    ]) {
      expectStatus(await req('/api/student-custom-fields', d), 201);
    }
    const rows: Array<[string, Row]> = [
      ['s9', { score: 9, nickname: 'b', since: '2024-03-01', school: 'Β', hobbies: ['Σκάκι'] }],
      ['s10', { score: 10, nickname: 'c', since: '2023-12-31', school: 'Α', hobbies: ['Μπάσκετ'] }],
      ['s100', { score: 100, nickname: 'a', since: '2024-10-05', school: 'Β', hobbies: ['Σκάκι', 'Μπάσκετ'] }],
      ['s2', { score: 2.5, nickname: 'd', since: '2022-01-01', school: 'Γ', hobbies: [] }],
      ['none', {}],
    ];
    const ids: Record<string, number> = {};
    for (const [name, custom_fields] of rows) {
      const res = await req('/api/students', { first_name: name, last_name: 'Ταξινόμηση', custom_fields });
      expectStatus(res, 201);
      ids[name] = json(res).id;
    }
    const names = async (query: string) => {
      const res = await req(`/api/students?_end=200&${query}`);
      expect(res.statusCode, `${query}: ${show(res)}`).toBe(200);
      return json(res).data.map((r: Row) => r.first_name) as string[];
    };
    expect((await names('custom_fields.score=10')).sort()).toEqual(['s10']);
    expect((await names('custom_fields.score=2.5')).sort()).toEqual(['s2']);
    expect((await names('custom_fields.nickname=a')).sort()).toEqual(['s100']);
    expect((await names('custom_fields.since=2023-12-31')).sort()).toEqual(['s10']);
    expect((await names(`custom_fields.school=${encodeURIComponent('Β')}`)).sort()).toEqual(['s100', 's9']);
    expect((await names(`custom_fields.school=${encodeURIComponent('Α')}&custom_fields.school=${encodeURIComponent('Γ')}`)).sort()).toEqual(['s10', 's2']);
    expect((await names(`custom_fields.hobbies=${encodeURIComponent('Μπάσκετ')}`)).sort()).toEqual(['s10', 's100']);
    const withValues = (list: string[]) => list.filter((n) => n !== 'none');
    expect(withValues(await names('_sort=custom_fields.score&_order=asc'))).toEqual(['s2', 's9', 's10', 's100']);
    expect(withValues(await names('_sort=custom_fields.score&_order=desc'))).toEqual(['s100', 's10', 's9', 's2']);
    expect(withValues(await names('_sort=custom_fields.nickname&_order=asc'))).toEqual(['s100', 's9', 's10', 's2']);
    expect(withValues(await names('_sort=custom_fields.since&_order=desc'))).toEqual(['s100', 's9', 's10', 's2']);
    // unknown keys, unsortable types and values of the wrong type are 400
    for (const q of [
      'custom_fields.nosuch=1',
      '_sort=custom_fields.nosuch',
      '_sort=custom_fields.hobbies',
      'custom_fields.score=abc',
      `custom_fields.school=${encodeURIComponent('Ω')}`,
      "_sort=custom_fields.score'--",
    ]) {
      const res = await req(`/api/students?${q}`);
      expect(res.statusCode, `${q}: ${show(res)}`).toBe(400);
    }
  });

  it('a definition change that would break stored values is 409 in-use; an allowed change is accepted', async () => {
    const tenant = await t.createTenant('cfchange');
    const req = (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) =>
      t.request({ method, url, body, token: tenant.admin.token, tenant: 'cfchange', clientType: 'api' });
    const make = async (d: Row) => json(await req('POST', '/api/student-custom-fields', d)).data as Row;
    const level = await make({ key: 'level', label: 'Επίπεδο', type: 'SINGLE_CHOICE', options: ['A1', 'B2', 'C2'] });
    const note = await make({ key: 'note', label: 'Σχόλιο', type: 'TEXT' });
    const count = await make({ key: 'count', label: 'Πλήθος', type: 'NUMBER' });
    const unused = await make({ key: 'unused', label: 'Αχρησιμοποίητο', type: 'TEXT' });
    const s1 = json(await req('POST', '/api/students', { first_name: 'Α', last_name: 'Α', custom_fields: { level: 'B2', note: 'κείμενο', count: 4 } })).data;
    const s2 = json(await req('POST', '/api/students', { first_name: 'Β', last_name: 'Β', custom_fields: { level: 'A1' } })).data;

    const refused: Array<[Row, Row, string]> = [
      [level, { options: ['A1', 'C2'] }, 'options'], // drops B2, which s1 holds
      [level, { type: 'MULTIPLE_CHOICE' }, 'type'], // 'B2' is not a list
      [note, { type: 'NUMBER' }, 'type'], // 'κείμενο' is not a number
      [note, { required: true }, 'required'], // s2 has no note
      [count, { type: 'TEXT' }, 'type'], // 4 is not a string
      [count, { type: 'DATE' }, 'type'],
    ];
    for (const [def, change, field] of refused) {
      const current = json(await req('GET', `/api/student-custom-fields/${def.id}`)).data;
      const res = await req('PATCH', `/api/student-custom-fields/${def.id}`, { ...change, version: current.version });
      expectError(res, 409, 'in-use', { [field]: 'invalid' });
      expect(json(await req('GET', `/api/student-custom-fields/${def.id}`)).data).toEqual(current);
    }
    // allowed: a new option, a label, position, required when every student has a value, any type when nothing is stored
    const okChanges: Array<[Row, Row]> = [
      [level, { options: ['A1', 'B2', 'C2', 'C1'] }],
      [level, { label: 'Επίπεδο γλώσσας', position: 7 }],
      [level, { required: true }],
      [unused, { type: 'NUMBER' }],
      [unused, { type: 'SINGLE_CHOICE', options: ['x'] }],
    ];
    for (const [def, change] of okChanges) {
      const current = json(await req('GET', `/api/student-custom-fields/${def.id}`)).data;
      const res = await req('PATCH', `/api/student-custom-fields/${def.id}`, { ...change, version: current.version });
      expectStatus(res, 200);
      expect(json(res).data).toMatchObject(change);
    }
    // stored values were never touched
    expect((await json(await req('GET', `/api/students/${s1.id}`))).data.custom_fields).toEqual({ level: 'B2', note: 'κείμενο', count: 4 });
    expect((await json(await req('GET', `/api/students/${s2.id}`))).data.custom_fields).toEqual({ level: 'A1' });
    const h = json(await req('GET', `/api/history?entity=student-custom-fields&entity_id=${level.id}`)).data;
    expect(h.map((e: Row) => e.action).sort()).toEqual(['create', 'update', 'update', 'update']);
  });

  it('deleting a definition with stored values is 409 in-use unless discard_values=true, which removes them with history', async () => {
    const tenant = await t.createTenant('cfdelete');
    const req = (method: 'POST' | 'DELETE' | 'GET', url: string, body?: unknown) =>
      t.request({ method, url, body, token: tenant.admin.token, tenant: 'cfdelete', clientType: 'api' });
    const used = json(await req('POST', '/api/student-custom-fields', { key: 'bus', label: 'Λεωφορείο', type: 'TEXT' })).data;
    const empty = json(await req('POST', '/api/student-custom-fields', { key: 'empty', label: 'Κενό', type: 'TEXT' })).data;
    const s1 = json(await req('POST', '/api/students', { first_name: 'Α', last_name: 'Α', custom_fields: { bus: 'Γραμμή 3' } })).data;
    const s2 = json(await req('POST', '/api/students', { first_name: 'Β', last_name: 'Β', custom_fields: {} })).data;

    const refused = expectError(await req('DELETE', `/api/student-custom-fields/${used.id}`), 409, 'in-use');
    expect(refused.error.details).toEqual({ reason: 'values-held', count: 1, uses: { students: 1 } });
    expectError(await req('DELETE', `/api/student-custom-fields/${used.id}?discard_values=false`), 409, 'in-use');
    expect(json(await req('GET', `/api/student-custom-fields/${used.id}`)).data).toEqual(used);
    expect(json(await req('GET', `/api/students/${s1.id}`)).data.custom_fields).toEqual({ bus: 'Γραμμή 3' });

    expectStatus(await req('DELETE', `/api/student-custom-fields/${empty.id}`), 204);
    expectError(await req('GET', `/api/student-custom-fields/${empty.id}`), 404, 'not-found');

    expectStatus(await req('DELETE', `/api/student-custom-fields/${used.id}?discard_values=true`), 204);
    expectError(await req('GET', `/api/student-custom-fields/${used.id}`), 404, 'not-found');
    const after = json(await req('GET', `/api/students/${s1.id}`)).data;
    expect(after.custom_fields ?? {}).toEqual({});
    expect(after.version).toBeGreaterThan(s1.version);
    const h = json(await req('GET', `/api/history?entity=students&entity_id=${s1.id}`)).data as Row[];
    const removal = h.find((e) => e.action === 'update');
    expect(removal, JSON.stringify(h)).toBeDefined();
    expect(JSON.stringify(removal!.changes)).toContain('Γραμμή 3');
    // a student without a value got no history entry
    expect((json(await req('GET', `/api/history?entity=students&entity_id=${s2.id}`)).data as Row[]).map((e) => e.action)).toEqual(['create']);
    // the key can be defined again, and the old value does not come back
    expectStatus(await req('POST', '/api/student-custom-fields', { key: 'bus', label: 'Λεωφορείο', type: 'TEXT' }), 201);
    expect(json(await req('GET', `/api/students/${s1.id}`)).data.custom_fields?.bus ?? null).toBeNull();
    const hd = json(await req('GET', `/api/history?entity=student-custom-fields&entity_id=${used.id}`)).data as Row[];
    expect(hd.map((e) => e.action).sort()).toEqual(['create', 'delete']);
  });

  it('a SECRETARY reads definitions but cannot change them, and writes the values', async () => {
    const sec = await t.createUser(admin.token, { role: 'SECRETARY', tenant: 'cfields' });
    const d = defs.score;
    const as = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      t.request({ method, url, body, token: sec.token, tenant: 'cfields', clientType: 'api' });
    expectStatus(await as('GET', '/api/student-custom-fields'), 200);
    expectStatus(await as('GET', `/api/student-custom-fields/${d.id}`), 200);
    expectError(await as('PATCH', `/api/student-custom-fields/${d.id}`, { label: 'Χ', version: d.version }), 403, 'forbidden');
    expectError(await as('POST', '/api/student-custom-fields', { key: 'secret', label: 'Χ', type: 'TEXT' }), 403, 'forbidden');
    expectError(await as('DELETE', `/api/student-custom-fields/${d.id}?discard_values=true`), 403, 'forbidden');
    // but a SECRETARY writes students' values
    const res = await as('POST', '/api/students', { first_name: 'Γ', last_name: 'Δ', custom_fields: { score: 8 } });
    expectStatus(res, 201);
    expect(json(res).data.custom_fields).toEqual({ score: 8 });
  });
});
