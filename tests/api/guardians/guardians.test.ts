// Guardians: the office's (ROOT, ADMIN, SECRETARY); a TEACHER is refused every guardian route
// and reads no guardian through a student either. Siblings share one guardian, seen from
// either side; ΑΦΜ, e-mail and phone are validated; search is accent- and case-blind; another
// centre's guardians are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { callerOf, created, createTeacher, makeWorld, ok, type Call, type Row, type Teacher, type World } from '../support/lessons-helpers';

const MOTHER = { first_name: 'Θεοδώρα', last_name: 'Αλεξίου', relation: 'MOTHER', phone: '+30 694 1234567', email: 'theodora@example.gr', tax_id: '094014201' };

describe.each(DATABASE_KINDS)('guardians on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let teacher: Teacher;
  let children: Row[];
  let guardian: Row;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 0, classes: 1, subjects: 0 });
    teacher = await createTeacher(t, w.admin, 'Άννα', 'Καθηγήτρια');
    children = [
      created(await w.admin('POST', '/api/students', { first_name: 'Νίκος', last_name: 'Αλεξίου', class_ids: [w.classes[0]!.id] })),
      created(await w.admin('POST', '/api/students', { first_name: 'Ειρήνη', last_name: 'Αλεξίου' })),
    ];
    guardian = created(await w.secretary('POST', '/api/guardians', { ...MOTHER, student_ids: children.map((c) => c.id) }), 'guardian');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is the office’s: ROOT, ADMIN and SECRETARY may, a TEACHER gets 403 on every route', async () => {
    const routes: Array<[string, string, (who: string) => unknown]> = [
      ['GET', '/api/guardians', () => undefined],
      ['GET', `/api/guardians/${guardian.id}`, () => undefined],
      ['POST', '/api/guardians', (who) => ({ first_name: 'Γιώργος', last_name: who })],
      ['PATCH', `/api/guardians/${guardian.id}`, () => undefined],
      ['DELETE', `/api/guardians/${guardian.id}`, () => undefined],
      ['GET', `/api/guardians/${guardian.id}/personal-data`, () => undefined],
      ['GET', `/api/history?entity=guardians&entity_id=${guardian.id}`, () => undefined],
    ];
    for (const [method, url, body] of routes) {
      const res = await teacher.call(method as 'GET', url, body('teacher'));
      expect(res.statusCode, `TEACHER ${method} ${url}: ${show(res)}`).toBe(403);
    }
    for (const [who, call] of [
      ['ROOT', w.root],
      ['ADMIN', w.admin],
      ['SECRETARY', w.secretary],
    ] as Array<[string, Call]>) {
      expect((await call('GET', '/api/guardians')).statusCode, who).toBe(200);
      expect((await call('GET', `/api/guardians/${guardian.id}`)).statusCode, who).toBe(200);
      const made = created(await call('POST', '/api/guardians', { first_name: 'Γιώργος', last_name: who }), who);
      const fresh = ok(await call('GET', `/api/guardians/${made.id}`));
      expect((await call('PATCH', `/api/guardians/${made.id}`, { version: fresh.version, city: 'Πάτρα' })).statusCode, who).toBe(200);
      expect((await call('DELETE', `/api/guardians/${made.id}`)).statusCode, who).toBeLessThan(300);
    }
  });

  it('lets siblings share one guardian, seen from either side', async () => {
    const read = ok(await w.admin('GET', `/api/guardians/${guardian.id}`));
    expect([...read.student_ids].sort()).toEqual(children.map((c) => c.id).sort());
    for (const child of children) {
      const row = ok(await w.admin('GET', `/api/students/${child.id}`));
      expect(row.guardian_ids).toEqual([guardian.id]);
    }
    // the students filtered by their guardian: both siblings
    const list = await w.admin('GET', `/api/students?guardian_ids=${guardian.id}`);
    expect(list.statusCode, show(list)).toBe(200);
    expect(
      JSON.parse(list.body)
        .data.map((s: Row) => s.id)
        .sort(),
    ).toEqual(children.map((c) => c.id).sort());
  });

  it('checks the ΑΦΜ by its check digit, and the e-mail and phone', async () => {
    for (const [field, value] of [
      ['tax_id', '094014202'],
      ['tax_id', '12345678'],
      ['tax_id', '000000000'],
      ['email', 'theodora@'],
      ['phone', 'τηλέφωνο'],
    ] as const) {
      const res = await w.admin('POST', '/api/guardians', { first_name: 'Λάθος', last_name: 'Τιμή', [field]: value });
      expectError(res, 400, 'validation', { [field]: expect.any(String) });
    }
    const right = created(await w.admin('POST', '/api/guardians', { first_name: 'Σωστή', last_name: 'Τιμή', tax_id: '090000045' }));
    expect(right.tax_id).toBe('090000045');
  });

  it('finds guardians accent- and case-blind', async () => {
    for (const q of ['θεοδωρα', 'ΑΛΕΞΙΟΥ', 'Αλεξιου']) {
      const res = await w.admin('GET', `/api/guardians?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, show(res)).toBe(200);
      expect(
        JSON.parse(res.body).data.map((g: Row) => g.id),
        q,
      ).toContain(guardian.id);
    }
  });

  it('keeps each centre’s guardians its own', async () => {
    const other = await t.createTenant('guardians-other');
    const call = callerOf(t, other.admin.token, 'guardians-other');
    expect((await call('GET', `/api/guardians/${guardian.id}`)).statusCode).toBe(404);
    expect(JSON.parse((await call('GET', '/api/guardians')).body).data).toEqual([]);
    expect((await call('PATCH', `/api/guardians/${guardian.id}`, { version: 1, city: 'Βόλος' })).statusCode).toBe(404);
    // another centre's students cannot be linked
    const res = await call('POST', '/api/guardians', { first_name: 'Ξένη', last_name: 'Κηδεμόνας', student_ids: [children[0]!.id] });
    expect(res.statusCode, show(res)).toBe(400);
  });
});
