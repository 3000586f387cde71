// Errors a user sees carry, beside their code and English message, what the message says as
// data (`error.details`), so the client words it in the user's language with plural forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('error details on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: admin.token });
  const make = async (resource: string, body: Row) => {
    const res = await call('POST', `/api/${resource}`, body);
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('in-use counts what keeps a record, by resource and in all, in numbers', async () => {
    const cat = await make('class-categories', { name: 'Γυμνάσιο' });
    for (const name of ['Α΄ Γυμνασίου', 'Β΄ Γυμνασίου']) await make('classes', { name, category_id: cat.id });
    const body = expectError(await call('DELETE', `/api/class-categories/${cat.id}`), 409, 'in-use');
    expect(body.error.details).toEqual({ reason: 'used-by', count: 2, uses: { classes: 2 }, used_by: ['2 classes'] });
  });

  it('a missing reference, a taken key and a deleted record say so by reason', async () => {
    const missing = expectError(await call('POST', '/api/classes', { name: 'Γ΄', category_id: 999_999 }), 400, 'validation', { category_id: 'invalid' });
    expect(missing.error.details).toEqual({ reason: 'reference-missing' });

    await make('student-custom-fields', { key: 'bus', label: 'Λεωφορείο', type: 'TEXT' });
    const taken = expectError(await call('POST', '/api/student-custom-fields', { key: 'bus', label: 'Άλλο', type: 'TEXT' }), 409, 'conflict', { key: 'taken' });
    expect(taken.error.details).toEqual({ reason: 'taken', field: 'key' });

    const teacher = await make('teachers', {
      username: 'deleted.teacher',
      password: 'teacher-pass-1',
      confirm_password: 'teacher-pass-1',
      first_name: 'Άρης',
      last_name: 'Νέος',
    });
    expect((await call('DELETE', `/api/teachers/${teacher.id}`)).statusCode).toBe(204);
    const gone = expectError(await call('PATCH', `/api/teachers/${teacher.id}`, { first_name: 'Άρης', version: teacher.version + 1 }), 409, 'conflict');
    expect(gone.error.details).toEqual({ reason: 'record-deleted' });
  });

  it('keeps every extra inside details: nothing stands beside code, message and fields', async () => {
    const cat = await make('class-categories', { name: 'Λύκειο' });
    await make('classes', { name: 'Α΄ Λυκείου', category_id: cat.id });
    const answers = [
      expectError(await call('DELETE', `/api/class-categories/${cat.id}`), 409, 'in-use'),
      expectError(await call('POST', '/api/classes', { name: 'Γ΄', category_id: 999_999 }), 400, 'validation'),
      expectError(await call('POST', '/api/students/import', { rows: [{}] }), 400, 'validation'),
    ];
    for (const body of answers) expect(Object.keys(body.error).filter((k) => !['code', 'message', 'fields', 'details'].includes(k))).toEqual([]);
    expect(answers[2]!.error.details).toMatchObject({ reason: 'rows-invalid', count: 1, errors: [{ row: 0 }] });
  });

  it('errors whose code says it all carry no details', async () => {
    const body = expectError(await call('GET', '/api/subjects/999999'), 404, 'not-found');
    expect(body.error.details).toBeUndefined();
  });
});
