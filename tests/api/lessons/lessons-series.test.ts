// Recurring lessons: DAILY,
// WEEKLY and CUSTOM series materialise their lessons in one transaction, bounded, all or nothing
// on conflict (reported per date), with skip_dates; the daylight-saving week (wall-clock times,
// and the iCal feed's UTC instants); edits of this / following / all, detached instances and
// include_changed; deleting a series whole or from a date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { addDays, expandRecurrence, isoWeekday, type RecurrenceRule } from '../../../domain/lessons';
import {
  createClass,
  createRoom,
  createTeacher,
  getLesson,
  historyOf,
  lessonBody,
  makeLesson,
  makeWorld,
  ok,
  patchLesson,
  seriesCreate,
  seriesLessons,
  vevents,
  type Row,
  type World,
} from '../support/lessons-helpers';

const expected = (rule: RecurrenceRule) => {
  const r = expandRecurrence(rule);
  if (!r.ok) throw new Error(JSON.stringify(r.fields));
  return r.dates;
};

describe.each(DATABASE_KINDS)('recurring lessons on %s', (kind) => {
  let t: TestApp;
  let w: World;
  // Each test books its own teacher, room and class, so series of different tests never clash.
  let own: () => Promise<{ teacher_id: number; room_id: number; class_id: number; teacher: Awaited<ReturnType<typeof createTeacher>> }>;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, rooms: 1, classes: 1, subjects: 1 });
    own = async () => {
      const teacher = await createTeacher(t, w.admin, 'Σειρά', 'Καθηγήτρια');
      return { teacher_id: teacher.row.id, room_id: (await createRoom(w.admin)).id, class_id: (await createClass(w.admin)).id, teacher };
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const seriesBody = (who: Row, rule: Row) => ({
    start_time: '17:00',
    end_time: '18:00',
    teacher_id: who.teacher_id,
    room_id: who.room_id,
    class_id: who.class_id,
    subject_id: w.subjects[0]!.id,
    lesson_type_id: w.lessonType.id,
    tag_ids: [w.tag.id],
    notes: 'Φέρτε το τετράδιο',
    ...rule,
  });
  const getSeries = async (id: number) => ok(await w.admin('GET', `/api/recurring-lessons/${id}`), `series ${id}`) as Row;
  const patchSeries = async (id: number, body: Row) => w.admin('PATCH', `/api/recurring-lessons/${id}`, { ...body, version: (await getSeries(id)).version });
  const totalLessons = async () => json(await w.admin('GET', '/api/lessons?_end=1')).total as number;
  const totalSeries = async () => json(await w.admin('GET', '/api/recurring-lessons?_end=1')).total as number;

  it.each([
    { name: 'DAILY every 2 days, AFTER 5', rule: { repeat: 'DAILY', repeat_every: 2, start_date: '2027-01-04', end_type: 'AFTER', occurrences: 5 } },
    {
      name: 'WEEKLY on Monday and Wednesday every 2 weeks, ON_DATE',
      rule: { repeat: 'WEEKLY', repeat_every: 2, weekdays: [3, 1], start_date: '2027-01-04', end_type: 'ON_DATE', until_date: '2027-02-28' },
    },
    { name: 'CUSTOM dates', rule: { repeat: 'CUSTOM', start_date: '2027-01-04', dates: ['2027-01-20', '2027-01-05', '2027-03-02'] } },
  ])('creates a $name series: 201 with lesson_ids, each a NORMAL kind-1 lesson of the series', async ({ rule }) => {
    const who = await own();
    const res = await w.admin('POST', '/api/recurring-lessons', seriesBody(who, rule));
    expectStatus(res, 201);
    const out = json(res);
    const dates = expected(rule as RecurrenceRule);
    expect(out.id).toBe(out.data.id);
    expect(out.lesson_ids).toHaveLength(dates.length);
    expect(out.data).toMatchObject({
      repeat: rule.repeat,
      start_date: '2027-01-04',
      start_time: '17:00',
      end_time: '18:00',
      lesson_count: dates.length,
      first_date: dates[0],
      last_date: dates[dates.length - 1],
    });
    expect(out.data.teacher).toEqual({ id: who.teacher_id, name: who.teacher.name });
    const lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => l.date)).toEqual(dates);
    expect(lessons.map((l) => l.id).sort((a, b) => a - b)).toEqual([...out.lesson_ids].sort((a: number, b: number) => a - b));
    for (const l of lessons) {
      expect(l).toMatchObject({
        recurring_lesson_id: out.id,
        kind: 1,
        status: 'NORMAL',
        detached: false,
        start_time: '17:00',
        end_time: '18:00',
        teacher_id: who.teacher_id,
        room_id: who.room_id,
        class_id: who.class_id,
        tag_ids: [w.tag.id],
        notes: 'Φέρτε το τετράδιο',
        color: w.lessonType.color,
      });
      expect(l.recurring_lesson).toMatchObject({ id: out.id });
    }
    // history: one entry per row written
    expect((await historyOf(w.admin, 'recurring-lessons', out.id)).map((e) => e.action).sort()).toEqual(['create'].sort());
    expect((await historyOf(w.admin, 'lessons', lessons[0]!.id)).map((e) => e.action).sort()).toEqual(['create'].sort());
  });

  it.each([
    { name: '501 occurrences', rule: { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'AFTER', occurrences: 501 }, fields: { occurrences: 'too-large' } },
    {
      name: 'past two years (ON_DATE)',
      rule: { repeat: 'WEEKLY', start_date: '2027-01-04', end_type: 'ON_DATE', until_date: '2029-01-05' },
      fields: { until_date: 'too-large' },
    },
    {
      name: 'past two years (AFTER)',
      rule: { repeat: 'WEEKLY', start_date: '2027-01-04', end_type: 'AFTER', occurrences: 110 },
      fields: { occurrences: 'too-large' },
    },
    {
      name: 'more than 500 days (ON_DATE)',
      rule: { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'ON_DATE', until_date: '2028-06-01' },
      fields: { until_date: 'too-large' },
    },
    { name: 'no end', rule: { repeat: 'DAILY', start_date: '2027-01-04' }, fields: { end_type: 'required' } },
    { name: 'AFTER without occurrences', rule: { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'AFTER' }, fields: { occurrences: 'required' } },
    {
      name: 'until before start',
      rule: { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'ON_DATE', until_date: '2027-01-03' },
      fields: { until_date: 'too-small' },
    },
    { name: 'CUSTOM without dates', rule: { repeat: 'CUSTOM', start_date: '2027-01-04', dates: [] }, fields: { dates: 'required' } },
    { name: 'CUSTOM before start', rule: { repeat: 'CUSTOM', start_date: '2027-01-04', dates: ['2027-01-01'] }, fields: { dates: 'too-small' } },
    { name: 'CUSTOM past two years', rule: { repeat: 'CUSTOM', start_date: '2027-01-04', dates: ['2029-01-05'] }, fields: { dates: 'too-large' } },
    {
      name: 'end before start',
      rule: { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'AFTER', occurrences: 2, start_time: '18:00', end_time: '17:00' },
      fields: { end_time: 'too-small' },
    },
  ])('refuses $name: 400 with the field code, nothing written', async ({ rule, fields }) => {
    const [lessons, series] = [await totalLessons(), await totalSeries()];
    const who = await own();
    expectError(await w.admin('POST', '/api/recurring-lessons', seriesBody(who, rule)), 400, 'validation', fields);
    expect(await totalLessons()).toBe(lessons);
    expect(await totalSeries()).toBe(series);
  });

  it('501 CUSTOM dates are refused on dates, 500 are created in one go', async () => {
    const who = await own();
    const many = Array.from({ length: 501 }, (_, i) => addDays('2027-01-04', i));
    const res = await w.admin('POST', '/api/recurring-lessons', seriesBody(who, { repeat: 'CUSTOM', start_date: '2027-01-04', dates: many }));
    const body = expectError(res, 400, 'validation');
    expect(['too-long', 'too-large']).toContain(body.error.fields.dates);
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'DAILY', start_date: '2027-01-04', end_type: 'AFTER', occurrences: 500 }));
    expect(out.lesson_ids).toHaveLength(500);
    expect((await getSeries(out.id)).lesson_count).toBe(500);
  });

  it('all or nothing: one conflicting date is 409 with the lesson in the way (its date), and no lesson or series is written; skip_dates books the rest', async () => {
    const who = await own();
    const blocker = await makeLesson(
      w.admin,
      lessonBody(w, '2027-05-18', {
        teacher_id: w.teachers[0]!.row.id,
        class_id: w.classes[0]!.id,
        room_id: who.room_id,
        start_time: '17:30',
        end_time: '18:30',
      }),
    );
    const blocker2 = await makeLesson(
      w.admin,
      lessonBody(w, '2027-06-01', { teacher_id: who.teacher_id, class_id: w.classes[0]!.id, room_id: w.rooms[0]!.id, start_time: '16:30', end_time: '17:30' }),
    );
    const [lessons, series] = [await totalLessons(), await totalSeries()];
    const rule = { repeat: 'WEEKLY', weekdays: [2], start_date: '2027-05-04', end_type: 'AFTER', occurrences: 6 };
    const res = await w.admin('POST', '/api/recurring-lessons', seriesBody(who, rule));
    const body = expectError(res, 409, 'conflict');
    const named = body.error.details.lessons as Row[];
    expect(
      named.map((l) => [l.id, l.date, [...l.clashes].sort()]),
      show(res),
    ).toEqual([
      [blocker.id, '2027-05-18', ['room']],
      [blocker2.id, '2027-06-01', ['teacher']],
    ]);
    expect(await totalLessons()).toBe(lessons);
    expect(await totalSeries()).toBe(series);

    const out = await seriesCreate(w.admin, seriesBody(who, { ...rule, skip_dates: ['2027-05-18', '2027-06-01'] }));
    const got = await seriesLessons(w.admin, out.id);
    expect(got.map((l) => l.date)).toEqual(['2027-05-04', '2027-05-11', '2027-05-25', '2027-06-08']);
    expect(out.lesson_ids).toHaveLength(4);
  });

  it('the daylight-saving week: a weekly 17:00 series from mid-October to mid-November stays at 17:00, and the iCal feed moves from 14:00Z to 15:00Z', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', start_date: '2026-10-13', end_type: 'ON_DATE', until_date: '2026-11-17' }));
    const lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => l.date)).toEqual(['2026-10-13', '2026-10-20', '2026-10-27', '2026-11-03', '2026-11-10', '2026-11-17']);
    for (const l of lessons) expect(l).toMatchObject({ start_time: '17:00', end_time: '18:00' });
    expect(lessons.map((l) => isoWeekday(l.date))).toEqual([2, 2, 2, 2, 2, 2]);

    const feed = await w.admin('POST', `/api/teachers/${who.teacher_id}/calendar-feed`);
    expectStatus(feed, 201);
    const path = new URL(json(feed).data.url, 'http://demo.localhost').pathname;
    const ics = await t.app.inject({ method: 'GET', url: path, headers: { host: 'demo.localhost' } });
    expectStatus(ics, 200);
    const events = vevents(ics.body);
    const byUid = new Map(events.map((e) => [e.UID, e]));
    for (const l of lessons) {
      const e = byUid.get(`lesson-${l.id}@demo.frontis`);
      expect(e, `${l.date} in ${ics.body.slice(0, 400)}`).toBeDefined();
      const day = l.date.replace(/-/g, '');
      // Europe/Athens: EEST (UTC+3) until 25 October 2026, EET (UTC+2) after
      const utcHour = l.date < '2026-10-25' ? 14 : 15;
      expect(e!.DTSTART, l.date).toBe(`${day}T${utcHour}0000Z`);
      expect(e!.DTEND, l.date).toBe(`${day}T${utcHour + 1}0000Z`);
    }
  });

  it('"this lesson": PATCH of one instance detaches it; series edits skip it unless include_changed', async () => {
    const who = await own();
    const other = await createRoom(w.admin);
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', start_date: '2027-07-06', end_type: 'AFTER', occurrences: 4 }));
    const [first, second] = await seriesLessons(w.admin, out.id);
    // homework and notes do not detach
    const hw = await patchLesson(w.admin, first!.id, { homework: 'Σελίδα 12' });
    expectStatus(hw, 200);
    expect(json(hw).data.detached).toBe(false);
    const moved = await patchLesson(w.admin, second!.id, { room_id: other.id });
    expectStatus(moved, 200);
    expect(json(moved).data).toMatchObject({ detached: true, room_id: other.id, recurring_lesson_id: out.id });

    const edit = await patchSeries(out.id, { start_time: '17:15', end_time: '18:15', scope: 'all' });
    expectStatus(edit, 200);
    expect(json(edit).data).toMatchObject({ start_time: '17:15', end_time: '18:15' });
    let lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => [l.date, l.start_time, l.room_id])).toEqual([
      ['2027-07-06', '17:15', who.room_id],
      ['2027-07-13', '17:00', other.id],
      ['2027-07-20', '17:15', who.room_id],
      ['2027-07-27', '17:15', who.room_id],
    ]);
    expect([...json(edit).lesson_ids].sort()).toEqual([lessons[0]!.id, lessons[2]!.id, lessons[3]!.id].sort());
    expect(lessons[0]!.homework).toBe('Σελίδα 12');

    const all = await patchSeries(out.id, { start_time: '17:30', end_time: '18:30', include_changed: true });
    expectStatus(all, 200);
    lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => l.start_time)).toEqual(['17:30', '17:30', '17:30', '17:30']);
    expect(lessons[1]!.room_id).toBe(other.id); // only the fields sent change
  });

  it('"this and following": only lessons from from_date change; the earlier ones stay', async () => {
    const who = await own();
    const room = await createRoom(w.admin);
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', start_date: '2027-08-03', end_type: 'AFTER', occurrences: 5 }));
    const before = await seriesLessons(w.admin, out.id);
    expectError(await patchSeries(out.id, { room_id: room.id, scope: 'following' }), 400, 'validation', { from_date: 'required' });
    const res = await patchSeries(out.id, { room_id: room.id, scope: 'following', from_date: '2027-08-17' });
    expectStatus(res, 200);
    const after = await seriesLessons(w.admin, out.id);
    expect(after.map((l) => [l.date, l.room_id])).toEqual([
      ['2027-08-03', who.room_id],
      ['2027-08-10', who.room_id],
      ['2027-08-17', room.id],
      ['2027-08-24', room.id],
      ['2027-08-31', room.id],
    ]);
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect([...json(res).lesson_ids].sort()).toEqual(
      after
        .slice(2)
        .map((l) => l.id)
        .sort(),
    );
    // history: the series and each lesson changed
    expect((await historyOf(w.admin, 'lessons', after[2]!.id)).map((e) => e.action).sort()).toEqual(['create', 'update']);
    expect((await historyOf(w.admin, 'lessons', after[0]!.id)).map((e) => e.action)).toEqual(['create']);
    expect((await historyOf(w.admin, 'recurring-lessons', out.id)).map((e) => e.action).sort()).toEqual(['create', 'update']);
  });

  it('at most 100 lessons in the way are listed, ordered by date', async () => {
    const who = await own();
    await seriesCreate(w.admin, seriesBody(who, { repeat: 'DAILY', start_date: '2028-01-03', end_type: 'AFTER', occurrences: 150 }));
    const other = await own();
    const [lessons, series] = [await totalLessons(), await totalSeries()];
    const res = await w.admin(
      'POST',
      '/api/recurring-lessons',
      seriesBody({ ...other, room_id: who.room_id }, { repeat: 'DAILY', start_date: '2028-01-03', end_type: 'AFTER', occurrences: 150 }),
    );
    const body = expectError(res, 409, 'conflict');
    const named = body.error.details.lessons as Row[];
    expect(named).toHaveLength(100);
    expect(named.map((l) => l.date)).toEqual(Array.from({ length: 100 }, (_, i) => addDays('2028-01-03', i)));
    expect(named.every((l) => l.clashes.join() === 'room')).toBe(true);
    expect(await totalLessons()).toBe(lessons);
    expect(await totalSeries()).toBe(series);
  });

  it('series edits do not detach the lessons they change', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'DAILY', start_date: '2027-09-20', end_type: 'AFTER', occurrences: 3 }));
    expectStatus(await patchSeries(out.id, { start_time: '16:00', room_id: (await createRoom(w.admin)).id }), 200);
    const lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => [l.start_time, l.detached])).toEqual([
      ['16:00', false],
      ['16:00', false],
      ['16:00', false],
    ]);
    // a status change or homework on one instance does not detach it either
    expectStatus(await patchLesson(w.admin, lessons[0]!.id, { status: 'CANCELED' }), 200);
    expect((await getLesson(w.admin, lessons[0]!.id)).detached).toBe(false);
  });

  it('a rule change with scope following keeps the lessons before from_date and books the new rule from it', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', weekdays: [2], start_date: '2027-10-05', end_type: 'AFTER', occurrences: 4 }));
    const before = await seriesLessons(w.admin, out.id);
    expect(before.map((l) => l.date)).toEqual(['2027-10-05', '2027-10-12', '2027-10-19', '2027-10-26']);
    const res = await patchSeries(out.id, { weekdays: [4], scope: 'following', from_date: '2027-10-19' });
    expectStatus(res, 200);
    const after = await seriesLessons(w.admin, out.id);
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(after.map((l) => l.date)).toEqual(['2027-10-05', '2027-10-12', '2027-10-21', '2027-10-28']);
    for (const l of before.slice(2)) expectError(await w.admin('GET', `/api/lessons/${l.id}`), 404, 'not-found');
  });

  it('a rule change moves the series to its new dates (weekly Tuesday -> Thursday)', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', weekdays: [2], start_date: '2027-09-07', end_type: 'AFTER', occurrences: 3 }));
    const res = await patchSeries(out.id, { weekdays: [4] });
    expectStatus(res, 200);
    const lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => l.date)).toEqual(['2027-09-09', '2027-09-16', '2027-09-23']);
    expect((await getSeries(out.id)).weekdays).toEqual([4]);
  });

  it('a rule change skips the dates already held by kept (detached, replaced) instances', async () => {
    const who = await own();
    const room = await createRoom(w.admin);
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', weekdays: [2], start_date: '2027-11-02', end_type: 'AFTER', occurrences: 3 }));
    const [tue1, tue2, tue3] = await seriesLessons(w.admin, out.id);
    // tue2 is changed on its own; tue3 was replaced
    expectStatus(await patchLesson(w.admin, tue2!.id, { room_id: room.id }), 200);
    expectStatus(await patchLesson(w.admin, tue3!.id, { status: 'TO_BE_REPLACED' }), 200);
    const replacement = await makeLesson(w.admin, { date: '2027-11-17', start_time: '10:00', end_time: '11:00', replaces_lesson_id: tue3!.id });
    // Tuesdays and Thursdays, 6 of them: 02, 04, 09, 11, 16, 18 November
    const res = await patchSeries(out.id, { weekdays: [2, 4], occurrences: 6 });
    expectStatus(res, 200);
    const lessons = await seriesLessons(w.admin, out.id);
    expect(lessons.map((l) => l.date)).toEqual(['2027-11-02', '2027-11-04', '2027-11-09', '2027-11-11', '2027-11-16', '2027-11-18']);
    // the kept instances are the same rows, unchanged; tue1 (NORMAL, in scope) was re-made
    expect(lessons.find((l) => l.date === '2027-11-09')).toEqual(await getLesson(w.admin, tue2!.id));
    expect(lessons.find((l) => l.date === '2027-11-09')!.room_id).toBe(room.id);
    expect(lessons.find((l) => l.date === '2027-11-16')).toMatchObject({ id: tue3!.id, status: 'REPLACED', replaced_by: replacement.id });
    expectError(await w.admin('GET', `/api/lessons/${tue1!.id}`), 404, 'not-found');
  });

  it('a series edit into a conflict is 409 with the lessons in the way and changes nothing', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', start_date: '2027-10-05', end_type: 'AFTER', occurrences: 3 }));
    const blocker = await makeLesson(w.admin, { date: '2027-10-12', start_time: '18:00', end_time: '19:00', class_id: who.class_id });
    const series = await getSeries(out.id);
    const before = await seriesLessons(w.admin, out.id);
    const res = await w.admin('PATCH', `/api/recurring-lessons/${out.id}`, { end_time: '18:30', version: series.version });
    const body = expectError(res, 409, 'conflict');
    expect(
      body.error.details.lessons.map((l: Row) => [l.id, l.date, l.clashes]),
      show(res),
    ).toEqual([[blocker.id, '2027-10-12', ['class']]]);
    expect(await seriesLessons(w.admin, out.id)).toEqual(before);
    expect(await getSeries(out.id)).toEqual(series);
    // a stale version is 409 stale
    expectStatus(await w.admin('PATCH', `/api/recurring-lessons/${out.id}`, { notes: 'x', version: series.version }), 200);
    expectError(await w.admin('PATCH', `/api/recurring-lessons/${out.id}`, { notes: 'y', version: series.version }), 409, 'stale');
  });

  it('DELETE with from_date removes the lessons from that date (the series ends the day before); a replaced original stays', async () => {
    const who = await own();
    const out = await seriesCreate(w.admin, seriesBody(who, { repeat: 'WEEKLY', start_date: '2027-11-02', end_type: 'AFTER', occurrences: 5 }));
    const lessons = await seriesLessons(w.admin, out.id);
    // the 4th one is replaced: it and its replacement stay
    expectStatus(await patchLesson(w.admin, lessons[3]!.id, { status: 'TO_BE_REPLACED' }), 200);
    const replacement = await makeLesson(w.admin, { date: '2027-11-24', start_time: '10:00', end_time: '11:00', replaces_lesson_id: lessons[3]!.id });
    expectStatus(await w.admin('DELETE', `/api/recurring-lessons/${out.id}?from_date=2027-11-16`), 204);
    const left = await seriesLessons(w.admin, out.id);
    expect(left.filter((l) => l.date < '2027-11-16')).toEqual(lessons.slice(0, 2));
    expect(left.map((l) => l.id)).not.toContain(lessons[2]!.id);
    expect(left.map((l) => l.id)).not.toContain(lessons[4]!.id);
    expect((await getLesson(w.admin, lessons[3]!.id)).status).toBe('REPLACED');
    const series = await getSeries(out.id);
    // the series ends the day before from_date
    expect(series).toMatchObject({ end_type: 'ON_DATE', until_date: '2027-11-15' });
    expect((await getLesson(w.admin, replacement.id)).replaces_lesson_id).toBe(lessons[3]!.id);
    for (const l of [lessons[2]!, lessons[4]!]) {
      expectError(await w.admin('GET', `/api/lessons/${l.id}`), 404, 'not-found');
      expect((await historyOf(w.admin, 'lessons', l.id)).map((e) => e.action)).toContain('delete');
    }
  });

  it('DELETE without from_date removes the series and its lessons; detached ones are kept (unlinked) unless include_changed', async () => {
    const who = await own();
    const room = await createRoom(w.admin);
    const a = await seriesCreate(w.admin, seriesBody(who, { repeat: 'DAILY', start_date: '2027-12-01', end_type: 'AFTER', occurrences: 3 }));
    const la = await seriesLessons(w.admin, a.id);
    expectStatus(await patchLesson(w.admin, la[1]!.id, { room_id: room.id }), 200);
    expectStatus(await w.admin('DELETE', `/api/recurring-lessons/${a.id}`), 204);
    expectError(await w.admin('GET', `/api/recurring-lessons/${a.id}`), 404, 'not-found');
    expectError(await w.admin('GET', `/api/lessons/${la[0]!.id}`), 404, 'not-found');
    expectError(await w.admin('GET', `/api/lessons/${la[2]!.id}`), 404, 'not-found');
    const kept = await getLesson(w.admin, la[1]!.id);
    expect(kept).toMatchObject({ recurring_lesson_id: null, room_id: room.id });
    expect((await historyOf(w.admin, 'recurring-lessons', a.id)).map((e) => e.action)).toContain('delete');

    const b = await seriesCreate(w.admin, seriesBody(who, { repeat: 'DAILY', start_date: '2027-12-10', end_type: 'AFTER', occurrences: 3 }));
    const lb = await seriesLessons(w.admin, b.id);
    expectStatus(await patchLesson(w.admin, lb[1]!.id, { room_id: room.id }), 200);
    expectStatus(await w.admin('DELETE', `/api/recurring-lessons/${b.id}?include_changed=true`), 204);
    for (const l of lb) expectError(await w.admin('GET', `/api/lessons/${l.id}`), 404, 'not-found');
  });
});
