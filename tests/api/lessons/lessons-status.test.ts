// Status and replacement of lessons:
// every (from, to) pair of LESSON_STATUSES by PATCH status, table-driven from the domain's
// LESSON_TRANSITIONS; the replacement flow (kinds 1, 2, 3); deleting replacements and originals;
// CANCELED -> NORMAL re-checking conflicts; the list of lessons still to be replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { LESSON_STATUSES, LESSON_TRANSITIONS, type LessonStatus } from '../../../domain';
import { bringTo, dateCursor, getLesson, historyOf, lessonBody, makeLesson, makeWorld, patchLesson, type Row, type World } from '../support/lessons-helpers';

const allowed = (from: LessonStatus, to: LessonStatus) => from === to || LESSON_TRANSITIONS[from].includes(to);
const PAIRS = LESSON_STATUSES.flatMap((from) => LESSON_STATUSES.map((to) => ({ from, to, allowed: allowed(from, to) })));

describe.each(DATABASE_KINDS)('lesson status and replacement on %s', (kind) => {
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-03-01');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 2, rooms: 2, classes: 2 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A NORMAL lesson on a day of its own, moved to `status`; a replacement goes to another day. */
  async function lessonIn(status: LessonStatus): Promise<Row> {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    expect(lesson).toMatchObject({ status: 'NORMAL', kind: 1, replaces_lesson_id: null, replaced_by: null });
    const moved = await bringTo(w.admin, lesson, status, lessonBody(w, nextDate()));
    expect(moved.status).toBe(status);
    return moved;
  }

  it.each(PAIRS)('PATCH status $from -> $to: allowed $allowed', async ({ from, to, allowed }) => {
    const lesson = await lessonIn(from);
    const res = await w.admin('PATCH', `/api/lessons/${lesson.id}`, { status: to, version: lesson.version });
    if (allowed) {
      expectStatus(res, 200);
      const data = json(res).data;
      expect(data.status, show(res)).toBe(to);
      expect(data.id).toBe(lesson.id);
      expect(await getLesson(w.admin, lesson.id)).toEqual(data);
    } else {
      const body = expectError(res, 409, 'conflict');
      expect(body.error.message, show(res)).toMatch(new RegExp(from));
      expect(body.error.message, show(res)).toMatch(new RegExp(to));
      // The same as data, for the client to say in the user's language.
      expect(body.error.details, show(res)).toEqual({ reason: 'status-move', from, to });
      expect(await getLesson(w.admin, lesson.id)).toEqual(lesson);
    }
  });

  it('a status change with a stale version is 409 stale and changes nothing', async () => {
    const lesson = await lessonIn('NORMAL');
    expectStatus(await w.admin('PATCH', `/api/lessons/${lesson.id}`, { notes: 'πρώτη αλλαγή', version: lesson.version }), 200);
    expectError(await w.admin('PATCH', `/api/lessons/${lesson.id}`, { status: 'CANCELED', version: lesson.version }), 409, 'stale');
    expect((await getLesson(w.admin, lesson.id)).status).toBe('NORMAL');
  });

  it('a new lesson is NORMAL kind 1; POST with another status is 400 fields.status invalid-option', async () => {
    const date = nextDate();
    const l = await makeLesson(w.admin, lessonBody(w, date, { status: 'NORMAL' }));
    expect(l).toMatchObject({ status: 'NORMAL', kind: 1, detached: false, recurring_lesson_id: null });
    for (const status of ['TO_BE_REPLACED', 'REPLACED', 'CANCELED']) {
      expectError(await w.admin('POST', '/api/lessons', lessonBody(w, nextDate(), { status })), 400, 'validation', { status: 'invalid-option' });
    }
  });

  it('a replacement of a NORMAL, CANCELED or REPLACED lesson is 409 conflict and nothing is created', async () => {
    for (const status of ['NORMAL', 'CANCELED', 'REPLACED'] as const) {
      const original = await lessonIn(status);
      const date = nextDate();
      const res = await w.admin('POST', '/api/lessons', lessonBody(w, date, { teacher_id: w.teachers[1]!.row.id, replaces_lesson_id: original.id }));
      expectError(res, 409, 'conflict');
      expect(await getLesson(w.admin, original.id), status).toEqual(original);
      expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total, status).toBe(0);
    }
  });

  it('replacing a TO_BE_REPLACED lesson: the new one is kind 2, the original REPLACED kind 3 (version + 1, history)', async () => {
    const original = await lessonIn('TO_BE_REPLACED');
    expect(original.kind).toBe(1);
    // the original no longer holds its slot: the replacement may take the very same room, teacher and class
    const res = await w.admin('POST', '/api/lessons', lessonBody(w, original.date, { replaces_lesson_id: original.id, homework: 'Ασκήσεις 1-5' }));
    expectStatus(res, 201);
    const replacement = json(res).data;
    expect(replacement).toMatchObject({ kind: 2, status: 'NORMAL', replaces_lesson_id: original.id, replaced_by: null, homework: 'Ασκήσεις 1-5' });
    expect(replacement.replaces_lesson).toEqual({ id: original.id, name: `${original.date} ${original.start_time}` });
    const after = await getLesson(w.admin, original.id);
    expect(after).toMatchObject({ status: 'REPLACED', kind: 3, version: original.version + 1, replaced_by: replacement.id });
    const h = await historyOf(w.admin, 'lessons', original.id);
    expect(h.filter((e) => e.action === 'update').length).toBeGreaterThanOrEqual(2); // TO_BE_REPLACED, then REPLACED
    expect(JSON.stringify(h)).toContain('REPLACED');

    // a second replacement is refused
    const second = await w.admin('POST', '/api/lessons', lessonBody(w, nextDate(), { replaces_lesson_id: original.id }));
    expectError(second, 409, 'conflict');
    expect(await getLesson(w.admin, original.id)).toEqual(after);

    // the original cannot be deleted while its replacement exists
    expectError(await w.admin('DELETE', `/api/lessons/${original.id}`), 409, 'in-use');
    expect(await getLesson(w.admin, original.id)).toEqual(after);

    // deleting the replacement turns the original back to TO_BE_REPLACED, kind 1
    expectStatus(await w.admin('DELETE', `/api/lessons/${replacement.id}`), 204);
    expectError(await w.admin('GET', `/api/lessons/${replacement.id}`), 404, 'not-found');
    const back = await getLesson(w.admin, original.id);
    expect(back).toMatchObject({ status: 'TO_BE_REPLACED', kind: 1, replaced_by: null });
    expect(back.version).toBeGreaterThan(after.version);

    // and it can be replaced again, then deleted once its replacement is gone
    const again = await makeLesson(w.admin, lessonBody(w, nextDate(), { replaces_lesson_id: original.id }));
    expect(again.kind).toBe(2);
    expectStatus(await w.admin('DELETE', `/api/lessons/${again.id}`), 204);
    expectStatus(await w.admin('DELETE', `/api/lessons/${original.id}`), 204);
  });

  it('replaces_lesson_id of a lesson that does not exist is 400 fields.replaces_lesson_id invalid', async () => {
    expectError(await w.admin('POST', '/api/lessons', lessonBody(w, nextDate(), { replaces_lesson_id: 2_000_000_000 })), 400, 'validation', {
      replaces_lesson_id: 'invalid',
    });
  });

  it('replaces_lesson_id is create-only: PATCH refuses it', async () => {
    const original = await lessonIn('TO_BE_REPLACED');
    const other = await lessonIn('NORMAL');
    const res = await patchLesson(w.admin, other.id, { replaces_lesson_id: original.id });
    expectError(res, 400, 'validation');
    expect(Object.keys(json(res).error.fields ?? {})).toContain('replaces_lesson_id');
    expect((await getLesson(w.admin, original.id)).status).toBe('TO_BE_REPLACED');
  });

  it('CANCELED -> NORMAL is 409 conflict naming the lesson that took the slot meanwhile, and stays CANCELED', async () => {
    const date = nextDate();
    const cancelled = await bringTo(w.admin, await makeLesson(w.admin, lessonBody(w, date)), 'CANCELED');
    // the room is taken by another teacher's class at an overlapping time
    const taker = await makeLesson(
      w.admin,
      lessonBody(w, date, { start_time: '17:30', end_time: '18:30', teacher_id: w.teachers[1]!.row.id, class_id: w.classes[1]!.id }),
    );
    const res = await w.admin('PATCH', `/api/lessons/${cancelled.id}`, { status: 'NORMAL', version: cancelled.version });
    const body = expectError(res, 409, 'conflict');
    expect(body.error.details.lessons, show(res)).toEqual([
      expect.objectContaining({ id: taker.id, date, start_time: '17:30', end_time: '18:30', status: 'NORMAL', clashes: ['room'] }),
    ]);
    expect(await getLesson(w.admin, cancelled.id)).toEqual(cancelled);
    // once the taker is cancelled, the restore goes through
    await bringTo(w.admin, taker, 'CANCELED');
    const restored = await w.admin('PATCH', `/api/lessons/${cancelled.id}`, { status: 'NORMAL', version: cancelled.version });
    expectStatus(restored, 200);
    expect(json(restored).data.status).toBe('NORMAL');
  });

  it('the list of lessons still to be replaced: GET /api/lessons?status=TO_BE_REPLACED', async () => {
    const waiting = [await lessonIn('TO_BE_REPLACED'), await lessonIn('TO_BE_REPLACED')];
    const others = [await lessonIn('NORMAL'), await lessonIn('CANCELED'), await lessonIn('REPLACED')];
    const res = await w.admin('GET', '/api/lessons?status=TO_BE_REPLACED&_end=200');
    expectStatus(res, 200);
    const body = json(res);
    expect(
      body.data.every((l: Row) => l.status === 'TO_BE_REPLACED'),
      show(res),
    ).toBe(true);
    const ids = body.data.map((l: Row) => l.id);
    for (const l of waiting) expect(ids).toContain(l.id);
    for (const l of others) expect(ids).not.toContain(l.id);
    expect(res.headers['x-total-count']).toBe(String(body.total));
    // ordered by date, start_time by default
    const keys = body.data.map((l: Row) => `${l.date} ${l.start_time}`);
    expect(keys).toEqual([...keys].sort());
    // kind filters too: replacements and replaced
    const replaced = json(await w.admin('GET', '/api/lessons?kind=3&_end=200')).data;
    expect(replaced.map((l: Row) => l.id)).toContain(others[2]!.id);
    expect(replaced.every((l: Row) => l.kind === 3 && l.status === 'REPLACED')).toBe(true);
    const replacements = json(await w.admin('GET', '/api/lessons?kind=2&_end=200')).data;
    expect(replacements.some((l: Row) => l.replaces_lesson_id === others[2]!.id)).toBe(true);
  });
});
