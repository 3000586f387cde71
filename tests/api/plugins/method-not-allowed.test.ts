// A known path asked with a method it does not answer is 405 `method-not-allowed`, with an
// `Allow` header naming the methods it does, in the API's error format; an unknown path stays
// 404, and a method the path answers is served as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const locale = (language: string) =>
  JSON.parse(readFileSync(join(__dirname, '../../../src/locales', language, 'errors.json'), 'utf8')) as { errors: Record<string, unknown> };

describe.each(DATABASE_KINDS)('a wrong method on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startApp(kind);
    token = (await t.signIn(t.root.username, t.root.password)).token;
  });
  afterAll(async () => t?.close());

  const allowOf = (res: { headers: Record<string, unknown> }) =>
    String(res.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);

  it('PUT and DELETE on the students list are 405 with the list’s own methods in Allow', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.request({ method, url: '/api/students', token, body: method === 'PUT' ? { first_name: 'Άννα' } : undefined });
      expectError(res, 405, 'method-not-allowed');
      const allow = allowOf(res);
      expect(allow, show(res)).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(allow, show(res)).not.toContain(method);
    }
  });

  it('a method a row does not answer is 405 with the row’s methods; a signed-out caller gets the same', async () => {
    const res = await t.request({ method: 'POST', url: '/api/students/1' });
    expectError(res, 405, 'method-not-allowed');
    expect(allowOf(res)).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
    expect(allowOf(res)).not.toContain('POST');
  });

  it('an unknown path stays 404, and the right method is served', async () => {
    expectError(await t.request({ method: 'PUT', url: '/api/no-such-things', token }), 404, 'not-found');
    expectError(await t.request({ method: 'GET', url: '/api/students/999999999', token }), 404, 'not-found');
    const list = await t.request({ method: 'GET', url: '/api/students', token });
    expect(list.statusCode, show(list)).toBe(200);
    expect(Array.isArray(json(list).data)).toBe(true);
  });

  it('the client has the code’s words in Greek and English', () => {
    expect(locale('el').errors['method-not-allowed']).toEqual(expect.any(String));
    expect(locale('en').errors['method-not-allowed']).toEqual(expect.any(String));
    expect(locale('el').errors['method-not-allowed']).not.toBe(locale('en').errors['method-not-allowed']);
  });
});
