// The answers of the non-CRUD routes are declared once, in domain/answers/: what each route
// really sends parses with its schema, and carries nothing the schema does not name (parsing
// drops an unnamed name, so the parsed answer would differ from the one sent). The records an
// answer carries (a contract, a series) are checked by response-schemas.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AccountMonthAnswer,
  AccountYearAnswer,
  CalendarAnswerSchema,
  ContractAnalyticsAnswer,
  ContractStatusAnswer,
  decodeCalendar,
  ImportReportAnswer,
  SeriesAnswer,
} from '../../../domain/index';
import { expectStatus, json } from '../support/api-helpers';
import { examEntity } from '../../../bench/exam-entity';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { lessonBody, makeWorld, type World } from '../support/lessons-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld } from '../support/money-helpers';

type Method = 'GET' | 'POST' | 'PATCH';

/** The answer of a call, parsed with its declared schema; it must be the answer as sent. */
function answerOf<S extends z.ZodType>(schema: S, res: Awaited<ReturnType<TestApp['request']>>, status = 200): z.infer<S> {
  expectStatus(res, status);
  const sent = json(res);
  const parsed = schema.safeParse(sent);
  expect(parsed.error?.issues ?? [], res.body.slice(0, 500)).toEqual([]);
  expect(parsed.data).toEqual(sent);
  return parsed.data as z.infer<S>;
}

describe.each(DATABASE_KINDS)('non-CRUD answers parse with their domain schemas on %s', (kind) => {
  let t: TestApp;
  let money: MoneyWorld;
  let lessons: World;
  const as = (token: string) => (method: Method, url: string, body?: unknown) => t.request({ method, url, body, token });

  beforeAll(async () => {
    t = await startApp(kind);
    money = await makeMoneyWorld(t, 2);
    lessons = await makeWorld(t, { teachers: 1, rooms: 1, classes: 1, subjects: 1 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('account month and year, contracts analytics and a contract status', async () => {
    const admin = as(money.token.ADMIN);
    const contract = await created(await admin('POST', '/api/contracts', contractBody(money)));
    await created(await admin('POST', '/api/payments', paymentBody(contract.id, { kind: 'REGISTER', month: null, amount: 5000, with_receipt: true })));
    await created(await admin('POST', '/api/payments', paymentBody(contract.id, { with_receipt: false })));
    await created(
      await admin('POST', '/api/payments', paymentBody(contract.id, { kind: 'EXTRA', month: null, amount: 1500, description: 'Βιβλία', with_receipt: false })),
    );

    const month = answerOf(AccountMonthAnswer, await admin('GET', '/api/account/month?month=2026-09'));
    expect(month.data.income).toEqual({ with_receipt: 5000, without_receipt: 13500, total: 18500 });

    const year = answerOf(AccountYearAnswer, await admin('GET', '/api/account/year?year=2026'));
    expect(year.data.months.map((m) => m.month)).toHaveLength(12);
    expect(year.data.totals.income.total).toBe(18500);

    const analytics = answerOf(ContractAnalyticsAnswer, await admin('GET', '/api/analytics/contracts?from=2026-09&to=2027-06'));
    expect(analytics.data.months).toHaveLength(10);
    expect(analytics.data.by_category.map((c) => c.id)).toContain(money.category.id);

    const status = answerOf(ContractStatusAnswer, await admin('GET', `/api/contracts/${contract.id}/status`));
    expect(status.data.contract.id).toBe(contract.id);
    expect(status.data.lines).toHaveLength(11);
    expect(status.data.extras.map((p) => p.kind)).toEqual(['EXTRA']);
    expect(status.data.payments).toHaveLength(3);
  });

  it('a series create and change, and the calendar week that shows its lessons', async () => {
    const w = lessons;
    // A series takes a lesson's fields without its date, plus how it repeats.
    const { date: _date, ...lesson } = lessonBody(w, '2027-03-01');
    const body = {
      ...lesson,
      repeat: 'WEEKLY',
      repeat_every: 1,
      weekdays: [1, 3],
      start_date: '2027-03-01',
      end_type: 'AFTER',
      occurrences: 4,
    };
    const made = answerOf(SeriesAnswer, await w.admin('POST', '/api/recurring-lessons', body), 201);
    expect(made.id).toBe(made.data.id);
    expect(made.lesson_ids).toHaveLength(4);

    const changed = answerOf(SeriesAnswer, await w.admin('PATCH', `/api/recurring-lessons/${made.id}`, { end_time: '18:30', version: made.data.version }));
    expect(changed.lesson_ids).toHaveLength(4);

    const week = answerOf(CalendarAnswerSchema, await w.admin('GET', '/api/lessons/calendar?from=2027-03-01&to=2027-03-07'));
    expect(week.total).toBe(2);
    expect(decodeCalendar(week).map((l) => [l.date, l.recurring_lesson_id, l.teacher?.id])).toEqual([
      ['2027-03-01', made.id, w.teachers[0]!.row.id],
      ['2027-03-03', made.id, w.teachers[0]!.row.id],
    ]);
  });

  it('the import reports of students and of a custom entity’s records', async () => {
    const admin = as(money.token.ADMIN);
    const rows = [{ first_name: 'Νέα', last_name: 'Μαθήτρια' }, { first_name: 'Χωρίς επώνυμο' }];
    const students = answerOf(ImportReportAnswer, await admin('POST', '/api/students/import', { rows, skip_invalid: true, dry_run: true }));
    expect(students).toEqual({ created: 1, skipped: 1, errors: [{ row: 1, fields: { last_name: 'required' } }] });

    const root = as(money.token.ROOT);
    expectStatus(await root('POST', '/api/custom-entities', examEntity('answers', { subjects: ['Φυσική'], tags: ['γραπτά'] })), 201);
    const records = answerOf(
      ImportReportAnswer,
      await admin('POST', '/api/custom-entities/answers/records/import', { rows: [{ title: 'Α1', grade: 5 }, { grade: 'x' }], skip_invalid: true }),
    );
    expect(records.created).toBe(1);
    expect(records.errors.map((e) => e.row)).toEqual([1]);
  });
});
