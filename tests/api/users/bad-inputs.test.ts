// Bad inputs never break the server: generated with fast-check, each answer must be a 4xx with
// {error:{code,message}} (400 validation naming the field at fault where there is one), and the
// data must be unchanged afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectClientError, expectError, expectStatus, json, show } from '../support/api-helpers';

const RUNS = 40;
const USER_FIELDS = ['username', 'password', 'role', 'first_name', 'last_name', 'email', 'phone', 'status'];
const REQUIRED = ['username', 'password', 'role', 'first_name', 'last_name'];
const TEXT_FIELDS = ['username', 'password', 'role', 'first_name', 'last_name', 'email', 'phone', 'status'];
const LIST_PARAMS = ['q', '_start', '_end', '_sort', '_order'];
const SQL = [
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '1 OR 1=1',
  'username; DELETE FROM users',
  'id desc, (select pg_sleep(5))',
  '"users"."password_hash"',
  'password_hash',
  'username) --',
  'lower(username)',
  '1); UPDATE users SET role=$$ROOT$$; --',
  '%',
  '_',
  '\\',
  '$1',
  "E'\\x00'",
  'username asc nulls first',
  'tenant_id',
  '\u0000',
];
const sqlish = fc.oneof(fc.constantFrom(...SQL), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const wrongValue = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const validFilterName = /^(username|role|first_name|last_name|email|phone|status)(_ne|_gte|_lte|_like)?$/;

describe.each(DATABASE_KINDS)('bad inputs on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;
  let target: { id: number; version: number };

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token: string | undefined = admin.token) =>
    t.request({ method, url, body, token, clientType: 'api' });
  /** Sends a raw payload with an explicit content type. */
  const sendRaw = (method: 'POST' | 'PATCH', url: string, payload: string | Buffer, contentType: string | null, token: string | undefined = admin.token) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: {
        host: 'demo.localhost',
        'x-client-type': 'api',
        'x-tenant-id': 'demo',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(contentType === null ? {} : { 'content-type': contentType }),
      },
    });

  async function snapshot() {
    const users = await send('GET', '/api/users?_start=0&_end=200&_sort=username&_order=asc');
    const tenants = await send('GET', '/api/tenants?_start=0&_end=200&_sort=slug&_order=asc', undefined, rootToken);
    const mine = await send('GET', '/api/mydata');
    for (const r of [users, tenants, mine]) expect(r.statusCode, show(r)).toBe(200);
    return { users: json(users), tenants: json(tenants), mine: json(mine) };
  }
  let before: Awaited<ReturnType<typeof snapshot>>;

  /** A client error, never a 500, with a well-formed body; for 400 validation naming `field` when given. */
  function expectRefused(res: Response, field?: string) {
    const body = expectClientError(res);
    if (field !== undefined) {
      expect(res.statusCode, show(res)).toBe(400);
      expect(body.error.code, show(res)).toBe('validation');
      expect(body.error.fields ?? {}, show(res)).toHaveProperty([field]);
    }
    return body;
  }

  function expectOkOrValidation(res: Response) {
    if (res.statusCode !== 200) {
      expectError(res, 400, 'validation');
      return;
    }
    const body = json(res);
    expect(Array.isArray(body.data), show(res)).toBe(true);
    expect(res.headers['x-total-count']).toBe(String(body.total));
  }

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN' });
    const res = await send('POST', '/api/users', { username: 'fuzztarget', password: 'fuzz-password-1', role: 'SECRETARY', first_name: 'Φ', last_name: 'Τ' });
    expect(res.statusCode, show(res)).toBe(201);
    target = { id: json(res).id, version: json(res).data.version };
    before = await snapshot();
  });
  afterAll(async () => {
    await t?.close();
  });

  const base = () => ({ username: 'fuzzuser', password: 'fuzz-password-2', role: 'SECRETARY', first_name: 'Fuzz', last_name: 'User' });

  it('POST /api/users: a missing required field is 400 required', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(REQUIRED, { minLength: 1 }), async (missing) => {
        const body: Record<string, unknown> = base();
        for (const f of missing) delete body[f];
        const res = await send('POST', '/api/users', body);
        const err = expectRefused(res, missing[0]);
        for (const f of missing) expect(err.error.fields[f], show(res)).toBe('required');
      }),
      { numRuns: 20 },
    );
  });

  it('POST /api/users: a wrong type is 400 naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...USER_FIELDS), wrongValue, async (field, value) => {
        const res = await send('POST', '/api/users', { ...base(), [field]: value });
        expectRefused(res, field);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /api/users: a 10 KB string is 400 naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TEXT_FIELDS), fc.constantFrom('a', 'ά', 'Ω', '1', ' x'), async (field, unit) => {
        const res = await send('POST', '/api/users', { ...base(), [field]: unit.repeat(10_240 / unit.length) });
        expectRefused(res, field);
      }),
      { numRuns: 20 },
    );
  });

  it('POST /api/users: an unknown field is 400 unknown-field', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(fc.stringMatching(/^[a-z_]{1,20}$/), fc.constantFrom('tenant_id', 'password_hash', 'is_root', 'created_at', 'search'))
          .filter((k) => !USER_FIELDS.includes(k) && k !== 'id' && k !== 'version'),
        fc.jsonValue({ maxDepth: 2 }),
        async (key, value) => {
          const res = await send('POST', '/api/users', { ...base(), [key]: value });
          // A __proto__ key anywhere makes the JSON parser refuse the whole body (prototype
          // poisoning): still a 400 validation, but about the body, not the field.
          if (JSON.stringify(value).includes('"__proto__"')) {
            expect(res.statusCode).toBe(400);
            expect(res.json().error.code).toBe('validation');
            return;
          }
          const err = expectRefused(res, key);
          expect(err.error.fields[key]).toBe('unknown-field');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('PATCH /api/users/:id: wrong types, long strings and unknown fields are 400 naming the field', async () => {
    const mutation = fc.oneof(
      fc.tuple(fc.constantFrom(...USER_FIELDS), wrongValue),
      fc.tuple(fc.constantFrom(...TEXT_FIELDS), fc.constant('x'.repeat(10_240))),
      fc.tuple(
        fc.constantFrom('tenant_id', 'password_hash', 'owner', 'created_by', 'search'),
        fc.jsonValue({ maxDepth: 1 }).filter((v) => !/"(__proto__|constructor)"/.test(JSON.stringify(v))),
      ),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async ([field, value]) => {
        const res = await send('PATCH', `/api/users/${target.id}`, { [field]: value, version: target.version });
        expectRefused(res, field);
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.integer({ max: 0 })), async (version) => {
        const res = await send('PATCH', `/api/users/${target.id}`, { first_name: 'Never', version });
        expectClientError(res);
      }),
      { numRuns: 20 },
    );
  });

  it('any JSON value as a body of a write is refused with a 4xx', async () => {
    const routes: Array<['POST' | 'PATCH', string, string | undefined]> = [
      ['POST', '/api/users', undefined],
      ['PATCH', `/api/users/${target.id}`, undefined],
      ['PATCH', '/api/mydata', undefined],
      ['POST', '/api/mydata/password', undefined],
      ['POST', '/api/tenants', 'root'],
      ['POST', '/login', 'none'],
      ['POST', '/refresh-token', 'none'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue({ maxDepth: 3 }), async ([method, url, who], value) => {
        const token = who === 'root' ? rootToken : who === 'none' ? undefined : admin.token;
        const res = await sendRaw(method, url, JSON.stringify(value) ?? 'null', 'application/json', token);
        expectRefused(res);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('login with strange credentials answers 400 or 401, never more', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          username: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom(...SQL), wrongValue),
          password: fc.oneof(fc.string({ maxLength: 200 }), wrongValue),
        }),
        async (creds) => {
          const res = await send('POST', '/login', { ...creds, tenant: 'demo' }, undefined);
          const body = expectRefused(res);
          expect([400, 401], show(res)).toContain(res.statusCode);
          expect(['validation', 'bad-credentials']).toContain(body.error.code);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('list queries: SQL in _sort, _order and filter names is 400; in values it is just data', async () => {
    await fc.assert(
      fc.asyncProperty(sqlish, async (frag) => {
        // identifiers might name a real column (id, created_at…): 200 or 400 both fine for them
        const identifier = /^[a-z_]+(,[a-z_]+)*$/.test(frag) && !/password|search|tenant/.test(frag);
        const sort = await send('GET', `/api/users?_sort=${encodeURIComponent(frag)}&_order=asc`);
        if (identifier || frag.replaceAll(',', '') === '') expectOkOrValidation(sort);
        else expectError(sort, 400, 'validation');

        const order = await send('GET', `/api/users?_sort=username&_order=${encodeURIComponent(frag)}`);
        if (/^((asc|desc)?,?)*$/i.test(frag)) expectOkOrValidation(order);
        else expectError(order, 400, 'validation');

        if (frag !== '' && !validFilterName.test(frag) && !LIST_PARAMS.includes(frag) && !identifier) {
          const filter = await send('GET', `/api/users?${encodeURIComponent(frag)}=1`);
          expectError(filter, 400, 'validation');
        }

        for (const param of ['username', 'first_name_like', 'email_ne', 'q', 'role', 'status', 'id', 'created_at_gte']) {
          expectOkOrValidation(await send('GET', `/api/users?${param}=${encodeURIComponent(frag)}`));
        }
      }),
      { numRuns: 30 },
    );
  });

  it('list paging parameters that are not small non-negative integers are 400', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('_start', '_end'),
        fc.oneof(
          fc.constantFrom('-1', 'abc', '1.5', '1e3', '99999999999999999999', "0'", '0;', ' ', 'NaN', 'Infinity', '0x10'),
          fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !/^\d+$/.test(s)),
        ),
        async (param, value) => {
          const other = param === '_start' ? '_end=10' : '_start=0';
          const res = await send('GET', `/api/users?${param}=${encodeURIComponent(value)}&${other}`);
          expectError(res, 400, 'validation');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ids that are not ids answer 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('abc', '1.5', '-1', '0', '99999999999999999999', '1;drop table users', "1'", '1 OR 1=1', '%00', '2147483648', '1e3'),
          // strings that a lenient parser could read as a small real id are left out
          fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !(Number(s) >= 1 && Number(s) < 1000)),
        ),
        fc.constantFrom('GET', 'PATCH', 'DELETE'),
        async (id, method) => {
          const url = `/api/users/${encodeURIComponent(id)}`;
          const res = await send(method as 'GET', url, method === 'PATCH' ? { first_name: 'X', version: 1 } : undefined);
          if (res.statusCode === 200 || res.statusCode === 204) {
            // only a real id of this tenant may succeed, and never for these inputs
            throw new Error(`${method} ${url} succeeded: ${show(res)}`);
          }
          const body = expectClientError(res);
          expect([400, 404], show(res)).toContain(res.statusCode);
          expect(['validation', 'not-found']).toContain(body.error.code);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('malformed JSON is 400 validation', async () => {
    const malformed = fc.oneof(
      fc.constantFrom(
        '{',
        '{"username": }',
        "{'username': 'x'}",
        '{"a":1,}',
        '[1,2',
        'undefined',
        '{"username":"x"}}',
        '\u0000',
        'nul',
        '{"__proto__": {"role": "ROOT"}}',
        '{"constructor": {"prototype": {"x": 1}}}',
      ),
      fc
        .jsonValue()
        .map((v) => JSON.stringify(v) ?? 'null')
        .filter((s) => s.length > 1)
        .map((s) => `${s.slice(0, -1)}#`),
      fc.string({ maxLength: 30 }).filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return s.trim() !== '';
        }
      }),
    );
    await fc.assert(
      fc.asyncProperty(malformed, fc.constantFrom('/api/users', '/login', '/api/mydata/password', '/sign-out'), async (payload, url) => {
        const res = await sendRaw('POST', url, payload, 'application/json', url === '/login' ? undefined : admin.token);
        let parses = true;
        try {
          JSON.parse(payload);
        } catch {
          parses = false;
        }
        if (parses)
          expectRefused(res); // the __proto__ / constructor cases parse, but must be refused
        else expectError(res, 400, 'validation');
      }),
      { numRuns: RUNS },
    );
    // an empty body declared as JSON
    expectError(await sendRaw('POST', '/api/users', '', 'application/json'), 400, 'validation');
    expectError(await sendRaw('PATCH', `/api/users/${target.id}`, '', 'application/json'), 400, 'validation');
  });

  it('a wrong content type is a 4xx', async () => {
    const body = JSON.stringify({ ...base(), username: 'ctype-user' });
    for (const ct of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/octet-stream',
      'text/html; charset=utf-8',
    ]) {
      const res = await sendRaw('POST', '/api/users', body, ct);
      expectRefused(res);
      const login = await sendRaw('POST', '/login', JSON.stringify({ username: 'root', password: 'root-password-1', tenant: 'demo' }), ct, undefined);
      expectRefused(login);
      expect(login.headers['set-cookie']).toBeUndefined();
    }
    // no content type at all with a body
    expectRefused(await sendRaw('POST', '/api/users', body, null));
  });

  it('huge bodies are 413 too-large', async () => {
    const big = JSON.stringify({ ...base(), first_name: 'x'.repeat(26 * 1024 * 1024) });
    for (const [method, url, token] of [
      ['POST', '/api/users', admin.token],
      ['PATCH', `/api/users/${target.id}`, admin.token],
      ['POST', '/login', undefined],
    ] as const) {
      const res = await sendRaw(method, url, big, 'application/json', token);
      expectError(res, 413, 'too-large');
    }
  });

  it('after all of it the data is unchanged and the server still answers', async () => {
    const after = await snapshot();
    expect(after).toEqual(before);
    expectStatus(await t.request({ method: 'GET', url: '/healthz', clientType: null, tenant: null }), 200);
    const session = await t.signIn(admin.username, admin.password);
    expect(session.user.role).toBe('ADMIN');
  });
});
