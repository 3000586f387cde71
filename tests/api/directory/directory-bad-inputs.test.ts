// Generated bad inputs against every directory resource: values of the wrong type for each field of the ResourceDef, overlong strings, unknown
// fields, any JSON body, junk list queries and ids. Each answer is a 4xx with {error: {code,
// message}}, 400 validation naming the field where there is one, and the data never changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectClientError, expectError, json, show } from '../support/api-helpers';
import { nonBlank, notId, notNumber, notString } from '../support/bad-values';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { RESOURCES as ALL_RESOURCES } from '../../../domain/resources/index';

type Row = Record<string, any>;
// Every resource of the directory: all declared resources but the foundation's own and the
// lessons (tests/api/lessons/lessons-bad-inputs.test.ts), the money (money-bad-inputs.test.ts), and
// folders and files (files-suite.ts: a file comes from an upload, not a JSON body).
const NOT_DIRECTORY = ['users', 'tenants', 'lessons', 'recurring-lessons', 'contracts', 'payments', 'expenses', 'expense-categories', 'folders', 'files'];
const RESOURCES: readonly ResourceDef[] = Object.values(ALL_RESOURCES).filter((r) => !NOT_DIRECTORY.includes(r.name));
const RUNS = 6;

const BASE: Record<string, () => Row> = {
  teachers: () => ({ username: 'fuzzteacher', password: 'teacher-password-1', confirm_password: 'teacher-password-1', first_name: 'Φ', last_name: 'Τ' }),
  students: () => ({ first_name: 'Φ', last_name: 'Μ' }),
  guardians: () => ({ first_name: 'Φ', last_name: 'Κ' }),
  'student-custom-fields': () => ({ key: 'fuzzkey', label: 'Φ', type: 'TEXT' }),
  notes: () => ({ title: 'Φ' }),
};
const baseOf = (res: ResourceDef) => (BASE[res.name] ?? (() => ({ name: 'Φ' })))();

/** Values that no field of this type accepts. */
function wrongFor(def: FieldDef): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'NUMBER':
    case 'MONEY':
      return fc.oneof(
        notNumber,
        ...(def.integer ? [fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d))] : []),
        ...(def.max !== undefined ? [fc.integer({ min: def.max + 1 })] : []),
      );
    case 'BOOLEAN':
      return fc.oneof(nonBlank, fc.integer(), fc.array(fc.boolean(), { maxLength: 2 }));
    case 'REFERENCE':
      return notId;
    case 'REFERENCES':
      return fc.oneof(nonBlank, fc.integer(), fc.array(notId, { minLength: 1, maxLength: 3 }));
    case 'CUSTOM_VALUES':
      return fc.oneof(nonBlank, fc.integer(), fc.array(fc.integer(), { maxLength: 2 }), fc.boolean());
    case 'OPTIONS':
      return fc.oneof(nonBlank, fc.integer(), fc.array(fc.integer(), { minLength: 1, maxLength: 2 }), fc.constant(['']));
    case 'ENUM':
    case 'SINGLE_CHOICE':
      // a blank optional value means "none" (null), so blanks are left out
      return fc.oneof(
        notString,
        fc.string({ maxLength: 12 }).filter((s) => !def.options!.includes(s) && (def.required || s.trim() !== '')),
      );
    case 'COLOR':
    case 'KEY':
    case 'DATE':
    case 'EMAIL':
    case 'PHONE':
    case 'TAX_ID':
    case 'USERNAME':
    case 'TIME':
      // '2025-13-01' is a bad date, time, key or colour, but a well-formed phone number and username.
      return fc.oneof(
        notString,
        fc.constantFrom(
          ...(def.required ? ['', '   '] : []),
          '#12345g',
          'not valid!',
          'Ω'.repeat(300),
          "'; DROP TABLE students; --",
          ...(def.type === 'TAX_ID' ? ['123456789', '12345678'] : []),
          ...(def.type === 'PHONE' || def.type === 'USERNAME' ? [] : ['2025-13-01']),
        ),
      );
    default:
      return notString;
  }
}

/** Whether the field-level code names `field` (or one of its elements, `field.0`). */
const names = (body: Row, field: string) => Object.keys(body.error?.fields ?? {}).some((k) => k === field || k.startsWith(`${field}.`));

describe.each(DATABASE_KINDS)('directory bad inputs on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;
  const target: Record<string, Row> = {};

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: admin.token, clientType: 'api' });
  const sendRaw = (method: 'POST' | 'PATCH', url: string, payload: string) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: {
        host: 'demo.localhost',
        'x-client-type': 'api',
        'x-tenant-id': 'demo',
        authorization: `Bearer ${admin.token}`,
        'content-type': 'application/json',
      },
    });

  async function snapshot() {
    const out: Record<string, unknown> = {};
    for (const res of RESOURCES) {
      const r = await send('GET', `/api/${res.name}?_start=0&_end=200&_sort=id&_order=asc`);
      expect(r.statusCode, show(r)).toBe(200);
      out[res.name] = json(r);
    }
    const deleted = await send('GET', '/api/teachers?_end=200&deleted=true');
    out.deletedTeachers = json(deleted);
    return out;
  }
  let before: Awaited<ReturnType<typeof snapshot>>;

  function expectNamed(res: Response, field: string) {
    const body = expectClientError(res);
    expect(res.statusCode, show(res)).toBe(400);
    expect(body.error.code, show(res)).toBe('validation');
    expect(names(body, field), `fields should name ${field}: ${show(res)}`).toBe(true);
  }

  beforeAll(async () => {
    t = await startApp(kind);
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN' });
    for (const res of RESOURCES) {
      const body = {
        ...baseOf(res),
        ...(res.name === 'teachers' ? { username: 'fuzztarget' } : res.name === 'student-custom-fields' ? { key: 'fuzztarget' } : {}),
      };
      const r = await send('POST', `/api/${res.name}`, body);
      expect(r.statusCode, `${res.name}: ${show(r)}`).toBe(201);
      target[res.name] = json(r).data;
    }
    before = await snapshot();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each(RESOURCES.map((res) => ({ name: res.name, res })))('$name', ({ res }) => {
    const writable = res.fields.filter((f) => !f.readOnly);
    const updatable = writable.filter((f) => !f.createOnly);

    it('POST and PATCH: a value of the wrong type in any field is 400 naming that field', async () => {
      const field = fc.constantFrom(...writable).chain((def) => fc.tuple(fc.constant(def), wrongFor(def)));
      await fc.assert(
        fc.asyncProperty(field, async ([def, value]) => {
          expectNamed(await send('POST', `/api/${res.name}`, { ...baseOf(res), [def.name]: value }), def.name);
          if (!def.createOnly)
            expectNamed(await send('PATCH', `/api/${res.name}/${target[res.name].id}`, { [def.name]: value, version: target[res.name].version }), def.name);
        }),
        { numRuns: RUNS },
      );
    });

    it('a 10 KB string in any text-like field is 400 naming the field', async () => {
      const textual = writable.filter((f) => !['NUMBER', 'MONEY', 'BOOLEAN', 'REFERENCE', 'REFERENCES', 'CUSTOM_VALUES', 'OPTIONS'].includes(f.type));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...textual), fc.constantFrom('a', 'ά', 'Ω', '1', ' x'), async (def, unit) => {
          const value = unit.repeat(Math.ceil(10_241 / unit.length));
          const body = { ...baseOf(res), [def.name]: value, ...(def.matches ? { [def.matches]: value } : {}) };
          expectNamed(await send('POST', `/api/${res.name}`, body), def.name);
        }),
        { numRuns: RUNS },
      );
    });

    it('unknown, read-only and system fields are 400 unknown-field', async () => {
      const readOnly = res.fields.filter((f) => f.readOnly).map((f) => f.name);
      const key = fc.oneof(
        // __proto__ and constructor are refused by the JSON parser itself (fields._), see the any-JSON test
        fc.stringMatching(/^[a-z_]{1,20}$/).filter((k) => !res.fields.some((f) => f.name === k) && !['id', 'version', '__proto__', 'constructor'].includes(k)),
        fc.constantFrom('tenant_id', 'created_at', 'updated_at', 'deleted_at', 'search', 'user_id', ...readOnly),
      );
      await fc.assert(
        fc.asyncProperty(
          key,
          fc.jsonValue({ maxDepth: 2 }).filter((v) => !/"(__proto__|constructor)"/.test(JSON.stringify(v))),
          async (k, value) => {
            const post = await send('POST', `/api/${res.name}`, { ...baseOf(res), [k]: value });
            expectNamed(post, k);
            expect(json(post).error.fields[k], show(post)).toBe('unknown-field');
            if (updatable.length)
              expectNamed(await send('PATCH', `/api/${res.name}/${target[res.name].id}`, { [k]: value, version: target[res.name].version }), k);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('any JSON value as a body, and bad versions, are refused with a 4xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('POST', 'PATCH') as fc.Arbitrary<'POST' | 'PATCH'>, fc.jsonValue({ maxDepth: 3 }), async (method, value) => {
          const url = method === 'POST' ? `/api/${res.name}` : `/api/${res.name}/${target[res.name].id}`;
          expectClientError(await sendRaw(method, url, JSON.stringify(value) ?? 'null'));
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.double().filter((d) => !Number.isInteger(d)),
            fc.boolean(),
            fc.constant(null),
            fc.integer({ max: -1 }),
            fc.constant(2 ** 31),
          ),
          async (version) => {
            const field = updatable.find((f) => f.type === 'TEXT')!;
            expectClientError(await send('PATCH', `/api/${res.name}/${target[res.name].id}`, { [field.name]: 'Ποτέ', version }));
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('junk list queries answer 200 or 400, never more; ids that are not ids answer 400 or 404', async () => {
      const param = fc.oneof(
        fc.constantFrom(
          'q',
          '_sort',
          '_order',
          '_start',
          '_end',
          'id',
          'created_at_gte',
          'nosuch',
          ...res.fields.map((f) => f.name),
          ...res.fields.map((f) => `${f.name}_like`),
        ),
        fc.string({ maxLength: 20 }),
      );
      const value = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom("'; DROP TABLE students; --", '%', '_', '\\', '1 OR 1=1', 'id desc, (select 1)', '\u0000', '9'.repeat(30), 'custom_fields.x'),
      );
      await fc.assert(
        fc.asyncProperty(param, value, async (p, v) => {
          const r = await send('GET', `/api/${res.name}?${encodeURIComponent(p)}=${encodeURIComponent(v)}`);
          if (r.statusCode !== 200) expectError(r, 400, 'validation');
          else expect(r.headers['x-total-count'], show(r)).toBe(String(json(r).total));
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.constantFrom('abc', '1.5', '-1', '0', '99999999999999999999', "1'", '1 OR 1=1', '2147483648', '1e3'),
            fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !(Number(s) >= 1)),
          ),
          fc.constantFrom('GET', 'PATCH', 'DELETE') as fc.Arbitrary<'GET' | 'PATCH' | 'DELETE'>,
          async (id, method) => {
            const r = await send(method, `/api/${res.name}/${encodeURIComponent(id)}`, method === 'PATCH' ? { version: 1 } : undefined);
            const body = expectClientError(r);
            expect([400, 404], show(r)).toContain(r.statusCode);
            expect(['validation', 'not-found']).toContain(body.error.code);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });

  it('students: generated custom_fields objects are validated against the definitions, never a 500', async () => {
    // the target definition "fuzztarget" is TEXT and optional
    const values = fc.dictionary(fc.oneof(fc.constant('fuzztarget'), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(values, async (custom_fields) => {
        const r = await send('POST', '/api/students', { first_name: 'Τυχαίο', last_name: 'Πεδίο', custom_fields });
        const fits = Object.entries(custom_fields).every(([k, v]) => k === 'fuzztarget' && (v === null || (typeof v === 'string' && v.trim().length <= 500)));
        if (fits) {
          expect(r.statusCode, show(r)).toBe(201);
          expect((await send('DELETE', `/api/students/${json(r).id}`)).statusCode).toBe(204);
        } else {
          const body = expectError(r, 400, 'validation');
          expect(
            Object.keys(body.error.fields).every((k) => k.startsWith('custom_fields')),
            show(r),
          ).toBe(true);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('after all of it the data is unchanged', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
