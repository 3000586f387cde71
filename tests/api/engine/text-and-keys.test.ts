// What a user typing text or naming keys gets back: control characters and names that show
// nothing are refused with field codes; keys that are JavaScript built-ins are refused, and one
// left in old data breaks nothing; a student import row is taken exactly when a create would be.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentCustomFields } from '../../../server/db/schema/index';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import '../support/fast-check-seed';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { withTenant } from '../../../server/db/doors';

type Row = Record<string, any>;

/** C0 controls but tab, LF and CR (which multi-line text may hold), and DEL. */
const BAD_CONTROLS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => !'\t\n\r'.includes(c)), '\u007F'];
const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u180E', '\u3164', '\u115F', ' ', '\u00A0', '\u0301'];

const visible = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /[A-Za-z0-9]/.test(s));
/** A control character between visible text (at either end, trimming would remove tabs and line breaks). */
const withControl = (controls: readonly string[]) => fc.tuple(visible, fc.constantFrom(...controls), visible).map(([a, c, b]) => `${a}${c}${b}`);
const invisibleOnly = fc.array(fc.constantFrom(...INVISIBLES), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));

describe.each(DATABASE_KINDS)('text fields and keys on %s', (kind) => {
  let t: TestApp;
  let tenantId: number;
  let token: string;
  let classId: number;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request({ method, url, body, token, tenant: 'keys', clientType: 'api' });

  beforeAll(async () => {
    t = await startApp(kind);
    const made = await t.createTenant('keys');
    tenantId = made.tenantId;
    token = made.admin.token;
    classId = json(await call('POST', '/api/classes', { name: 'Α΄ Γυμνασίου' })).id;
    expectStatus(await call('POST', '/api/student-custom-fields', { key: 'school', label: 'Σχολείο', type: 'TEXT' }), 201);
    expectStatus(await call('POST', '/api/student-custom-fields', { key: 'level', label: 'Επίπεδο', type: 'SINGLE_CHOICE', options: ['A1', 'B2'] }), 201);
  });
  afterAll(async () => {
    await t?.close();
  });

  const TEXT_CASES: Array<{ url: string; field: string; base: Row }> = [
    { url: '/api/students', field: 'first_name', base: { first_name: 'Άννα', last_name: 'Μαθήτρια' } },
    { url: '/api/subjects', field: 'name', base: { name: 'Φυσική', color: '#224466' } },
    { url: '/api/rooms', field: 'name', base: { name: 'Αίθουσα', capacity: 10 } },
    { url: '/api/notes', field: 'title', base: { title: 'Σημείωση' } },
  ];

  it.each(TEXT_CASES)('$url refuses $field with a control character (invalid-format)', async ({ url, field, base }) => {
    await fc.assert(
      fc.asyncProperty(withControl([...BAD_CONTROLS, '\t', '\n']), async (value) => {
        const res = await call('POST', url, { ...base, [field]: value });
        expectError(res, 400, 'validation', { [field]: 'invalid-format' });
      }),
      { numRuns: 15 },
    );
  });

  it.each(TEXT_CASES)('$url refuses a $field made only of invisible characters (required)', async ({ url, field, base }) => {
    await fc.assert(
      fc.asyncProperty(invisibleOnly, async (value) => {
        const res = await call('POST', url, { ...base, [field]: value });
        expectError(res, 400, 'validation', { [field]: 'required' });
      }),
      { numRuns: 15 },
    );
  });

  it('multi-line text keeps tabs and line breaks but refuses other controls; a custom text value is checked the same way', async () => {
    const ok = await call('POST', '/api/notes', { title: 'Πρόοδος', body: 'Γραμμή 1\n\tΓραμμή 2\r\nΤέλος' });
    expectStatus(ok, 201);
    expect(json(ok).data.body).toBe('Γραμμή 1\n\tΓραμμή 2\r\nΤέλος');
    await fc.assert(
      fc.asyncProperty(withControl(BAD_CONTROLS), async (value) => {
        expectError(await call('POST', '/api/notes', { title: 'Πρόοδος', body: value }), 400, 'validation', { body: 'invalid-format' });
        const student = await call('POST', '/api/students', { first_name: 'Άννα', last_name: 'Μαθήτρια', custom_fields: { school: value } });
        expectError(student, 400, 'validation', { 'custom_fields.school': 'invalid-format' });
      }),
      { numRuns: 15 },
    );
    // Optional text of invisible characters only is refused too, not stored as a blank-looking value.
    expectError(await call('POST', '/api/notes', { title: 'Πρόοδος', body: '\u200B\u200B' }), 400, 'validation', { body: 'invalid-format' });
    // Names with accents and inner spaces are untouched.
    const named = await call('POST', '/api/students', { first_name: 'Ζωή-Μαρία', last_name: 'Παπαδοπούλου Νίκα' });
    expectStatus(named, 201);
  });

  it('a custom field key that is a JavaScript built-in or otherwise reserved is refused', async () => {
    for (const key of ['constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty', 'isprototypeof', 'then']) {
      const res = await call('POST', '/api/student-custom-fields', { key, label: 'Πεδίο', type: 'TEXT' });
      expectError(res, 400, 'validation', { key: 'invalid' });
    }
    for (const key of ['__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await call('POST', '/api/student-custom-fields', { key, label: 'Πεδίο', type: 'TEXT' });
      expectStatus(res, 400);
      expect(Object.keys(json(res).error.fields ?? {}), show(res)).toEqual(['key']);
    }
    // Ordinary keys that merely contain such words are fine.
    expectStatus(await call('POST', '/api/student-custom-fields', { key: 'constructor_notes', label: 'Πεδίο', type: 'TEXT' }), 201);
  });

  it('a `constructor` custom field left in old data breaks neither create nor import, and both judge its values alike', async () => {
    await withTenant(t.database, tenantId, (tx) => tx.insert(studentCustomFields).values({ tenantId, key: 'constructor', label: 'Παλιό', type: 'TEXT' }));
    const plain = { first_name: 'Νίκος', last_name: 'Παλαιός' };
    expectStatus(await call('POST', '/api/students', plain), 201);
    const withValue = await call('POST', '/api/students', { ...plain, custom_fields: { constructor: 'κάτι' } });
    expectStatus(withValue, 201);
    expect(json(withValue).data.custom_fields).toEqual({ constructor: 'κάτι' });

    const bad = { ...plain, custom_fields: { constructor: 5 } };
    const created = await call('POST', '/api/students', bad);
    const body = expectError(created, 400, 'validation', { 'custom_fields.constructor': 'invalid-type' });
    const imported = await call('POST', '/api/students/import', { rows: [plain, bad], dry_run: true, skip_invalid: true });
    expectStatus(imported, 200);
    expect(json(imported)).toMatchObject({ created: 1, skipped: 1, errors: [{ row: 1, fields: body.error.fields }] });
  });

  it('every refused import names a field, and each row is judged exactly as a create of it would be', async () => {
    const all = await call('POST', '/api/students/import', { rows: [{ first_name: '' }], dry_run: true });
    const refused = expectError(all, 400, 'validation', { rows: 'invalid' });
    expect(refused.error.details.errors[0].fields).toMatchObject({ first_name: 'required', last_name: 'required' });

    const name = fc.oneof(visible, fc.constant(''), invisibleOnly, withControl(BAD_CONTROLS), fc.constant('x'.repeat(300)), fc.constant(7));
    const row = fc.record(
      {
        first_name: name,
        last_name: fc.oneof(visible, invisibleOnly),
        email: fc.oneof(fc.constant('anna@example.com'), fc.constant('not-an-email'), fc.constant(null), fc.constant('')),
        custom_fields: fc.oneof(
          fc.constant({}),
          fc.constant({ level: 'A1' }),
          fc.constant({ level: 'Z9' }),
          fc.constant({ constructor: 'x' }),
          fc.constant({ nope: 1 }),
          withControl(BAD_CONTROLS).map((school) => ({ school })),
        ),
        class_ids: fc.oneof(fc.constant([]), fc.constant([classId]), fc.constant([1_999_999_999])),
      },
      { requiredKeys: ['first_name'] },
    );
    await fc.assert(
      fc.asyncProperty(row, async (student) => {
        const dry = await call('POST', '/api/students/import', { rows: [student], dry_run: true, skip_invalid: true });
        expectStatus(dry, 200);
        const answer = json(dry);
        const created = await call('POST', '/api/students', student);
        if (answer.created === 1) expectStatus(created, 201);
        else {
          const refusedOne = expectError(created, 400, 'validation');
          expect(Object.keys(refusedOne.error.fields).length, show(created)).toBeGreaterThan(0);
          expect(answer.errors[0].fields, JSON.stringify(student)).toEqual(refusedOne.error.fields);
        }
      }),
      { numRuns: 40 },
    );
  });
});
