// A person's data, for ADMIN and ROOT: one document with everything the centre holds about a
// student or a guardian (a fixture touches every table that can point at a person), and the
// erasure that forgets the person while every figure of the centre stays the same and every
// receipt stays as issued.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../domain/index';
import { show } from '../support/api-helpers';
import { examEntity } from '../../../bench/exam-entity';
import { multipart } from '../support/files-suite';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { callerOf, created, createTeacher, lessonBody, makeLesson, makeWorld, ok, type Call, type Row, type World } from '../support/lessons-helpers';
import { queryRows } from '../../../server/db/statements';

const STUDENT = {
  first_name: 'Ευτυχία',
  last_name: 'Σταματοπούλου',
  email: 'eftychia.st@example.gr',
  phone: '+30 697 1112233',
  birth_date: '2010-04-02',
  information: 'Αλλεργία στη γύρη',
};
const GUARDIAN = {
  first_name: 'Θεοδώρα',
  last_name: 'Σταματοπούλου',
  relation: 'MOTHER',
  phone: '+30 694 5556677',
  email: 'theodora.st@example.gr',
  address: 'Ανθέων 12',
  city: 'Χαλάνδρι',
  postal_code: '15231',
  tax_id: '094014201',
};
const SCHOOL = 'Ζάππειο Λύκειο';
const NOTE_BODY = 'Ζήτησε ραντεβού η μητέρα της';
const MARK_NOTE = 'Ήρθε με καθυστέρηση λόγω λεωφορείου';
const MESSAGE_BODY = `Η Ευτυχία Σταματοπούλου απουσίασε σήμερα.`;

describe.each(DATABASE_KINDS)('personal data on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let admin: Call;
  let tenantId: number;
  let student: Row;
  let sibling: Row;
  let guardian: Row;
  let contract: Row;
  let payment: Row;
  let lesson: Row;
  let note: Row;
  let receiptId: number;
  let exam: Row;

  const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, classes: 1, subjects: 1 });
    admin = w.admin;
    tenantId = Number((await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id);
    created(await admin('POST', '/api/student-custom-fields', { key: 'school', label: 'Σχολείο', type: 'TEXT', required: false, position: 0 }), 'custom field');
    student = created(
      await admin('POST', '/api/students', { ...STUDENT, custom_fields: { school: SCHOOL }, class_ids: [w.classes[0]!.id], subject_ids: [w.subjects[0]!.id] }),
      'student',
    );
    sibling = created(await admin('POST', '/api/students', { first_name: 'Άρης', last_name: 'Σταματόπουλος' }), 'sibling');
    guardian = created(await admin('POST', '/api/guardians', { ...GUARDIAN, student_ids: [student.id, sibling.id] }), 'guardian');
    const category = created(await admin('POST', '/api/contract-categories', { name: 'Ετήσιο' }), 'category');
    contract = created(
      await admin('POST', '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: guardian.id,
        category_id: category.id,
        start_date: '2026-09-15',
        end_date: '2027-06-30',
        register_cost: 5000,
        month_cost: 12000,
        with_receipt: true,
        notes: 'Έκπτωση λόγω αδελφού',
      }),
      'contract',
    );
    payment = created(
      await admin('POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: '2026-09',
        amount: 12000,
        method: 'CASH',
        paid_on: '2026-09-20',
      }),
      'payment',
    );
    note = created(await admin('POST', '/api/notes', { title: 'Συνάντηση με γονέα', body: NOTE_BODY, student_id: student.id }), 'note');
    created(await w.root('POST', '/api/custom-entities', examEntity('exams', { subjects: ['Άλγεβρα'], tags: ['γραπτά'] })), 'custom entity');
    exam = created(await admin('POST', '/api/custom-entities/exams/records', { title: 'Διαγώνισμα Άλγεβρας', student: student.id }), 'exam');
    lesson = await makeLesson(admin, lessonBody(w, '2027-02-01'));
    // The payment was recorded with a receipt: the receipts module issued it.
    receiptId = Number(payment.receipt_id);
    expect(receiptId, 'the payment issued a receipt').toBeGreaterThan(0);
    // Attendance and the families' outbox are rows as their modules write them.
    await exec(
      sql`insert into attendance (tenant_id, lesson_id, student_id, status, note) values (${tenantId}, ${lesson.id}, ${student.id}, 'LATE', ${MARK_NOTE})`,
    );
    await exec(sql`insert into outbox (tenant_id, kind, dedupe_key, recipient, guardian_id, subject, body, params)
      values (${tenantId}, 'absence', ${`absence:lesson:${lesson.id}:student:${student.id}:guardian:${guardian.id}`}, ${GUARDIAN.email}, ${guardian.id},
        'Απουσία', ${MESSAGE_BODY}, ${JSON.stringify({ student_id: student.id, lesson_id: lesson.id })}::jsonb)`);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const documentOf = async (call: Call, kindOf: 'students' | 'guardians', id: number) =>
    ok(await call('GET', `/api/${kindOf}/${id}/personal-data`), 'personal data');

  it('answers only ADMIN and ROOT: SECRETARY and TEACHER get 403', async () => {
    const teacher = await createTeacher(t, admin, 'Άννα', 'Καθηγήτρια');
    for (const call of [w.secretary, teacher.call]) {
      for (const [method, url] of [
        ['GET', `/api/students/${student.id}/personal-data`],
        ['GET', `/api/guardians/${guardian.id}/personal-data`],
        ['POST', `/api/students/${student.id}/erase`],
        ['POST', `/api/guardians/${guardian.id}/erase`],
      ] as const) {
        const res = await call(method, url);
        expect(res.statusCode, `${method} ${url}: ${show(res)}`).toBe(403);
      }
    }
    expect((await w.root('GET', `/api/students/${student.id}/personal-data`)).statusCode).toBe(200);
    expect((await admin('GET', '/api/students/999999/personal-data')).statusCode).toBe(404);
    // another centre's ADMIN does not find the person
    const other = await t.createTenant('pd-other');
    const res = await callerOf(t, other.admin.token, 'pd-other')('GET', `/api/students/${student.id}/personal-data`);
    expect(res.statusCode).toBe(404);
  });

  it('holds everything the centre keeps about a student', async () => {
    const doc = await documentOf(admin, 'students', student.id);
    expect(doc.person).toMatchObject({ ...STUDENT, custom_fields: { school: SCHOOL } });
    expect(doc.guardians.map((g: Row) => g.tax_id)).toEqual([GUARDIAN.tax_id]);
    expect(doc.classes.map((c: Row) => c.id)).toEqual([w.classes[0]!.id]);
    expect(doc.subjects.map((s: Row) => s.id)).toEqual([w.subjects[0]!.id]);
    expect(doc.contracts.map((c: Row) => c.id)).toEqual([contract.id]);
    expect(doc.payments.map((p: Row) => [p.id, p.amount])).toEqual([[payment.id, 12000]]);
    expect(doc.contract_months.length).toBeGreaterThan(0);
    expect(doc.receipts.map((r: Row) => [r.id, r.payment_ids])).toEqual([[receiptId, [payment.id]]]);
    expect(doc.attendance.map((a: Row) => [a.lesson_id, a.status, a.note])).toEqual([[lesson.id, 'LATE', MARK_NOTE]]);
    expect(doc.notes.map((n: Row) => n.body)).toEqual([NOTE_BODY]);
    expect(doc.messages.map((m: Row) => m.body)).toEqual([MESSAGE_BODY]);
    expect(doc.custom_records.map((r: Row) => [r.id, r.entity, (r.data as Row).title])).toEqual([[exam.id, 'exams', 'Διαγώνισμα Άλγεβρας']]);
    const entries = doc.history.map((h: Row) => `${h.entity}:${h.entity_id}:${h.action}`);
    for (const e of [`students:${student.id}:create`, `contracts:${contract.id}:create`, `payments:${payment.id}:create`, `notes:${note.id}:create`]) {
      expect(entries).toContain(e);
    }
    // no other centre's rows, no internal columns
    expect(JSON.stringify(doc)).not.toMatch(/"tenant_id"|"search"/);
  });

  it('holds everything the centre keeps about a guardian: her children, the contracts she pays, receipts and messages', async () => {
    const doc = await documentOf(admin, 'guardians', guardian.id);
    expect(doc.person).toMatchObject(GUARDIAN);
    expect(doc.students.map((s: Row) => s.id).sort()).toEqual([student.id, sibling.id].sort());
    expect(doc.contracts.map((c: Row) => c.id)).toEqual([contract.id]);
    expect(doc.receipts.map((r: Row) => r.id)).toEqual([receiptId]);
    expect(doc.messages.map((m: Row) => m.recipient)).toEqual([GUARDIAN.email]);
    expect(doc.history.map((h: Row) => `${h.entity}:${h.action}`)).toContain('guardians:create');
  });

  it('archives the whole centre: a streamed zip whose every resource equals what the API lists, with the files and a manifest', async () => {
    const bytes = Buffer.from('Πρόγραμμα σπουδών\n', 'utf8');
    const body = multipart('πρόγραμμα.txt', bytes, 'text/plain');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { host: 'demo.localhost', 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${w.adminToken}`, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, show(uploaded)).toBe(201);
    const fileId = JSON.parse(uploaded.body).data.id as number;
    for (const call of [w.secretary]) expect((await call('GET', '/api/export')).statusCode).toBe(403);

    const res = await admin('GET', '/api/export');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const dir = await mkdtemp(join(tmpdir(), 'frontis-export-'));
    try {
      await writeFile(join(dir, 'centre.zip'), res.rawPayload);
      execFileSync('unzip', ['-q', join(dir, 'centre.zip'), '-d', join(dir, 'out')]);
      const out = join(dir, 'out');
      const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
      expect(manifest.files).toBe(1);
      for (const name of Object.keys(RESOURCES).filter((n) => n !== 'tenants')) {
        const held = JSON.parse(await readFile(join(out, `${name}.json`), 'utf8')) as Row[];
        const listed: Row[] = [];
        for (let start = 0; ; start += 200) {
          const page = await admin('GET', `/api/${name}?_start=${start}&_end=${start + 200}&_sort=id&_order=asc`);
          expect(page.statusCode, `${name}: ${show(page)}`).toBe(200);
          const rows = JSON.parse(page.body).data as Row[];
          listed.push(...rows);
          if (rows.length < 200) break;
        }
        expect(held, name).toEqual(listed);
        expect(manifest.counts[name], name).toBe(listed.length);
        const csv = (await readFile(join(out, `${name}.csv`), 'utf8')).split('\r\n').filter(Boolean);
        expect(csv.length - 1, `${name}.csv`).toBe(listed.length);
      }
      // the custom entities' records too
      const exams = JSON.parse(await readFile(join(out, 'custom-entities', 'exams.json'), 'utf8')) as Row[];
      expect(exams.map((r) => [r.id, r.title, r.student])).toEqual([[exam.id, 'Διαγώνισμα Άλγεβρας', student.id]]);
      expect(manifest.counts['custom-entities/exams']).toBe(1);
      const students = await readFile(join(out, 'students.csv'), 'utf8');
      expect(students.split('\r\n')[0]).toContain('first_name');
      expect(students).toContain(STUDENT.email);
      expect(await readFile(join(out, 'files', `${fileId}-πρόγραμμα.txt`))).toEqual(bytes);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('erases a student: the values are gone, the erasure is in history, every figure is the same', async () => {
    const statusBefore = ok(await admin('GET', `/api/contracts/${contract.id}/status`));
    const monthBefore = ok(await admin('GET', '/api/account/month?month=2026-09'));
    const res = await admin('POST', `/api/students/${student.id}/erase`);
    expect(res.statusCode, show(res)).toBe(200);

    const row = ok(await admin('GET', `/api/students/${student.id}`));
    expect(row).toMatchObject({ first_name: 'Διαγραμμένος/η', email: null, phone: null, birth_date: null, information: null, custom_fields: {} });
    const doc = await documentOf(admin, 'students', student.id);
    // Receipts are fiscal documents and keep what they were issued with (the child they pay for).
    const text = JSON.stringify({ ...doc, receipts: undefined });
    for (const value of [
      STUDENT.first_name,
      STUDENT.email,
      STUDENT.phone,
      STUDENT.birth_date,
      STUDENT.information,
      SCHOOL,
      NOTE_BODY,
      MARK_NOTE,
      'Έκπτωση λόγω αδελφού',
    ]) {
      expect(text, value).not.toContain(value);
    }
    const history = ok(await admin('GET', `/api/history?entity=students&entity_id=${student.id}`));
    const changes = JSON.stringify(history);
    expect(changes).not.toContain(STUDENT.first_name);
    expect(changes).not.toContain(STUDENT.email);
    expect(changes).toContain('erased');
    // the receipt is a fiscal document: as issued
    expect(doc.receipts[0].payer).toMatchObject({ name: `${GUARDIAN.first_name} ${GUARDIAN.last_name}`, tax_id: GUARDIAN.tax_id });
    // money: the same contract, payments, balances and month
    expect(doc.payments.map((p: Row) => [p.id, p.amount, p.paid_on])).toEqual([[payment.id, 12000, '2026-09-20']]);
    const statusAfter = ok(await admin('GET', `/api/contracts/${contract.id}/status`));
    expect([statusAfter.total_cost, statusAfter.total_paid, statusAfter.rest, statusAfter.lines]).toEqual([
      statusBefore.total_cost,
      statusBefore.total_paid,
      statusBefore.rest,
      statusBefore.lines,
    ]);
    expect(ok(await admin('GET', '/api/account/month?month=2026-09'))).toEqual(monthBefore);
    // the student is found by name no more
    const found = await admin('GET', `/api/students?q=${encodeURIComponent('ευτυχια')}`);
    expect(found.statusCode, show(found)).toBe(200);
    expect(JSON.parse(found.body).data.map((s: Row) => s.id)).not.toContain(student.id);
    const byFamily = await admin('GET', `/api/students?q=${encodeURIComponent('σταματ')}`);
    expect(JSON.parse(byFamily.body).data.map((s: Row) => s.id)).toEqual([sibling.id]);
  });

  it('erases a guardian: contacts and tax number gone, the receipt as issued, no message left to send', async () => {
    const res = await admin('POST', `/api/guardians/${guardian.id}/erase`);
    expect(res.statusCode, show(res)).toBe(200);
    const doc = await documentOf(admin, 'guardians', guardian.id);
    expect(doc.person).toMatchObject({ first_name: 'Διαγραμμένος/η', phone: null, email: null, address: null, tax_id: null, notify: false });
    expect(doc.students).toEqual([]);
    expect(doc.messages.map((m: Row) => [m.recipient, m.body])).toEqual([['', '']]);
    const history = JSON.stringify(ok(await admin('GET', `/api/history?entity=guardians&entity_id=${guardian.id}`)));
    expect(history).not.toContain(GUARDIAN.email);
    expect(history).not.toContain(GUARDIAN.address);
    expect(doc.receipts[0].payer).toMatchObject({ tax_id: GUARDIAN.tax_id });
    // the contract still names its payer, and is paid as before
    expect(ok(await admin('GET', `/api/contracts/${contract.id}`)).payer_guardian_id).toBe(guardian.id);
  });
});
