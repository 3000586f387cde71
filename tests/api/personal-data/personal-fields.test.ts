// What is personal is said once, on the field's declaration (FieldDef.personal), and erasure and
// a person's document follow it everywhere: a resource declared here, at test time, with a
// personal field pointing at a student is exported and erased with no other code; her
// attendance marks' history (as ADMIN and her teacher read it) keeps neither her name nor the
// remark; an erased guardian's portal sign-in, its history and the sign-in attempts under her
// e-mail forget her. Each erasure is then checked against every table of the database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../../../domain/fields';
import { students } from '../../../server/db/schema/index';
import { declaredTable } from '../../../server/db/schema/declared';
import { show } from '../support/api-helpers';
import { createTables } from '../support/declared-ddl';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { callerOf, created, fresh, lessonBody, makeLesson, makeWorld, ok, type Call, type Row, type World } from '../support/lessons-helpers';
import { addSignIn, GUARDIAN_PASSWORD } from '../support/portal-helpers';
import { queryRows } from '../../../server/db/statements';

/** Reports about a student: `summary` and `remark` are personal, `grade` is not. */
const REPORTS = defineResource({
  name: 'tutor-reports',
  area: 'notes',
  fields: [
    { name: 'student_id', type: 'REFERENCE', reference: 'students', required: true, filterable: true },
    { name: 'summary', type: 'TEXT', required: true, max: 200, searchable: true, personal: true },
    { name: 'remark', type: 'LONG_TEXT', searchable: true, personal: true },
    { name: 'grade', type: 'NUMBER', integer: true, min: 0, max: 20 },
  ],
  defaultSort: [{ field: 'id', order: 'asc' }],
  screen: { route: '/tutor-reports/', entity: 'tutor_report', modes: ['create', 'update'], icon: 'notes', order: 115 },
});
const reports = declaredTable(REPORTS, { students: () => students });

const FIRST = 'Ξανθίππη';
const LAST = 'Ζαχαριάδου';
const GUARDIAN = { first_name: 'Ροδάνθη', last_name: 'Ζαχαριάδου', relation: 'MOTHER', phone: '+30 693 4445566', address: 'Κυψέλης 40' };
const REMARK = 'Δυσκολεύεται στα κλάσματα λόγω δυσλεξίας';
const SUMMARY = 'Πρόοδος τριμήνου Ξανθίππης';
const MARK_NOTE = 'Έφυγε νωρίς για γιατρό';

describe.each(DATABASE_KINDS)('personal fields followed everywhere on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let tenantId: number;
  let student: Row;
  let guardian: Row;
  let email: string;
  let report: Row;
  let markId: number;

  /** Tables (any, the platform's too) whose rows still hold `text` anywhere, but for what a law keeps. */
  const holding = async (text: string) => {
    const tables = await queryRows<{ name: string }>(
      t.database.db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r' order by 1`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const [hit] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from ${sql.identifier(name)} t where strpos(lower(to_jsonb(t)::text), lower(${text})) > 0`,
      );
      if (Number(hit!.n) > 0) found.push(name);
    }
    return found;
  };

  beforeAll(async () => {
    t = await startApp(kind, {}, { resources: [REPORTS], prepare: (database) => createTables(database, { reports }) });
    w = await makeWorld(t, { teachers: 1, classes: 1, subjects: 1 });
    tenantId = Number((await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id);
    student = created(
      await w.admin('POST', '/api/students', { first_name: FIRST, last_name: LAST, email: `${fresh('pupil')}@example.gr`, class_ids: [w.classes[0]!.id] }),
      'student',
    );
    email = `${fresh('rodanthi')}@example.gr`;
    guardian = created(await w.admin('POST', '/api/guardians', { ...GUARDIAN, email, student_ids: [student.id] }), 'guardian');
    await addSignIn(t, tenantId, guardian);
    // sign-in attempts under her e-mail: a wrong password, then hers
    expect(
      (await t.request({ method: 'POST', url: '/login', tenant: 'demo', body: { username: email, password: 'not-her-password', tenant: 'demo' } })).statusCode,
    ).toBe(401);
    const her = callerOf(t, (await t.signIn(email, GUARDIAN_PASSWORD, 'demo')).token, 'demo');
    // she changes her phone herself, in the portal: the history says she did
    const me = ok(await her('GET', '/api/portal/me')).guardian;
    const changedByHer = await her('PATCH', '/api/portal/me', { version: me.version, phone: '+30 693 7778899' });
    expect(changedByHer.statusCode, show(changedByHer)).toBe(200);

    // a change of her sent under an Idempotency-Key: its answer, naming her, is kept a day
    const keyed = await t.request({
      method: 'PATCH',
      url: `/api/students/${student.id}`,
      token: w.adminToken,
      headers: { 'idempotency-key': fresh('erase-key') },
      body: { information: 'Χρειάζεται ενίσχυση', version: student.version },
    });
    expect(keyed.statusCode, show(keyed)).toBe(200);
    report = created(await w.admin('POST', '/api/tutor-reports', { student_id: student.id, summary: SUMMARY, remark: 'Πρώτη σημείωση', grade: 17 }), 'report');
    const changed = await w.admin('PATCH', `/api/tutor-reports/${report.id}`, { remark: REMARK, version: report.version });
    expect(changed.statusCode, show(changed)).toBe(200);

    // her teacher marks her absent, with a remark: her family's notices name her
    const lesson = await makeLesson(w.admin, lessonBody(w, '2027-03-02'));
    const teacher = w.teachers[0]!.call;
    const marked = await teacher('PUT' as 'PATCH', `/api/lessons/${lesson.id}/attendance`, {
      marks: [{ student_id: student.id, status: 'ABSENT', note: MARK_NOTE }],
    });
    expect(marked.statusCode, show(marked)).toBe(200);
    markId = Number((await queryRows<{ id: number }>(t.database.db, sql`select id from attendance where student_id = ${student.id}`))[0]!.id);
  }, 240_000);
  afterAll(async () => t?.close());

  const historyAs = async (call: Call, entity: string, id: number) => JSON.stringify(ok(await call('GET', `/api/history?entity=${entity}&entity_id=${id}`)));

  it("holds a resource's personal rows in her document by its declaration alone, with their history", async () => {
    const doc = ok(await w.admin('GET', `/api/students/${student.id}/personal-data`));
    expect(doc['tutor-reports'].map((r: Row) => [r.id, r.summary, r.remark, r.grade])).toEqual([[report.id, SUMMARY, REMARK, 17]]);
    expect(doc.attendance.map((a: Row) => [a.id, a.status, a.note, a.lesson_date])).toEqual([[markId, 'ABSENT', MARK_NOTE, '2027-03-02']]);
    const entries = doc.history.map((h: Row) => `${h.entity}:${h.entity_id}:${h.action}`);
    expect(entries).toEqual(expect.arrayContaining([`tutor-reports:${report.id}:create`, `tutor-reports:${report.id}:update`, `attendance:${markId}:create`]));
    // the absence notices to her family and to the office name her
    expect(await holding(`${FIRST} ${LAST}`)).toEqual(expect.arrayContaining(['history', 'notifications', 'outbox']));
    expect(await holding(FIRST)).toContain('idempotency_keys');
    // before erasure, the mark's history names her, to ADMIN and to her teacher
    for (const call of [w.admin, w.teachers[0]!.call]) expect(await historyAs(call, 'attendance', markId)).toContain(`${FIRST} ${LAST}`);
  });

  it('erases the student: the declared personal fields, her marks and their history hold nothing of her, in any table', async () => {
    const res = await w.admin('POST', `/api/students/${student.id}/erase`);
    expect(res.statusCode, show(res)).toBe(200);

    const row = ok(await w.admin('GET', `/api/tutor-reports/${report.id}`));
    // the personal fields are erased, the rest kept
    expect(row).toMatchObject({ student_id: student.id, summary: 'Διαγραμμένος/η', remark: null, grade: 17 });
    const found = JSON.parse((await w.admin('GET', `/api/tutor-reports?q=${encodeURIComponent('κλασματα')}`)).body);
    expect(found.data).toEqual([]);

    for (const call of [w.admin, w.teachers[0]!.call]) {
      const history = await historyAs(call, 'attendance', markId);
      expect(history).not.toContain(FIRST);
      expect(history).not.toContain(LAST);
      expect(history).not.toContain(MARK_NOTE);
      expect(history).toContain('[erased]');
    }
    const doc = ok(await w.admin('GET', `/api/students/${student.id}/personal-data`));
    const text = JSON.stringify(doc);
    for (const value of [FIRST, LAST, REMARK, SUMMARY, MARK_NOTE, 'Πρώτη σημείωση']) expect(text, value).not.toContain(value);
    expect(doc.attendance.map((a: Row) => [a.status, a.note])).toEqual([['ABSENT', null]]);

    // nowhere in the database: not in a row, a history entry, a message or a search text
    for (const value of [FIRST, REMARK, SUMMARY, MARK_NOTE, 'κλασματα']) expect(await holding(value), value).toEqual([]);
    // her guardian is another person: she is still there until erased herself
    expect(await holding(GUARDIAN.address)).toContain('guardians');
  });

  it('erases the guardian: her portal sign-in, its history and the sign-in attempts under her e-mail forget her', async () => {
    const [user] = await queryRows<{ id: number }>(t.database.db, sql`select id from users where lower(username) = ${email}`);
    expect(user, 'her portal sign-in').toBeDefined();
    expect(await holding(email)).toEqual(expect.arrayContaining(['login_attempts', 'users', 'guardians']));
    const count = async (name: string) =>
      Number((await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from login_attempts where username_key = ${name}`))[0]!.n);
    const hers = await count(email);
    expect(hers).toBeGreaterThan(0);

    const res = await w.admin('POST', `/api/guardians/${guardian.id}/erase`);
    expect(res.statusCode, show(res)).toBe(200);
    for (const value of [email, GUARDIAN.address, GUARDIAN.phone, GUARDIAN.first_name, '+30 693 7778899']) expect(await holding(value), value).toEqual([]);
    // the attempts are still counted, under no name
    expect(await count('[erased]')).toBe(hers);
    // she cannot sign in any more
    const signIn = await t.request({ method: 'POST', url: '/login', tenant: 'demo', body: { username: email, password: GUARDIAN_PASSWORD, tenant: 'demo' } });
    expect(signIn.statusCode).toBe(401);
    expect(await historyAs(w.admin, 'users', user!.id)).not.toContain(email);
    expect(await historyAs(w.admin, 'guardians', guardian.id)).not.toContain(GUARDIAN.last_name);
  });

  it('refuses an unknown person and changes nothing', async () => {
    const before = await historyAs(w.admin, 'students', student.id);
    for (const kindOf of ['students', 'guardians']) {
      const res = await w.admin('POST', `/api/${kindOf}/987654/erase`);
      expect(res.statusCode, show(res)).toBe(404);
    }
    const slug = fresh('pf-other').toLowerCase();
    const other = await t.createTenant(slug);
    const res = await callerOf(t, other.admin.token, slug)('POST', `/api/students/${student.id}/erase`);
    expect(res.statusCode, show(res)).toBe(404);
    expect(await historyAs(w.admin, 'students', student.id)).toBe(before);
  });
});
