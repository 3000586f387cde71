// Who may do what with lessons: every lessons route as ROOT,
// ADMIN, SECRETARY, a TEACHER (own lessons only; homework and notes only) and nobody; another
// centre's ids (404) and references (400 invalid); history of every write; the private iCal
// feed per teacher (secret link, reset, revoke, tenant-bound).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { decodeCalendar, type CalendarAnswer } from '../../../domain/calendar';
import { addDays } from '../../../domain/lessons';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import {
  callerOf,
  dateCursor,
  getLesson,
  historyOf,
  lessonBody,
  makeLesson,
  makeWorld,
  patchLesson,
  seriesCreate,
  vevents,
  type Call,
  type Row,
  type World,
} from '../support/lessons-helpers';

type Who = 'ROOT' | 'ADMIN' | 'SECRETARY' | 'TEACHER' | 'anonymous';
const WHO: Who[] = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER', 'anonymous'];
const STAFF: Who[] = ['ROOT', 'ADMIN', 'SECRETARY'];

describe.each(DATABASE_KINDS)('lessons access on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let x: World; // another centre
  const as: Partial<Record<Who, Call>> = {};
  const nextDate = dateCursor('2027-01-11');
  let own: Row; // teacher 0's lesson
  let others: Row; // teacher 1's lesson
  let ownSeries: Row;
  let otherSeries: Row;
  let foreignLesson: Row;
  let foreignSeries: Row;
  let me: Row; // teacher 0's row
  let him: Row; // teacher 1's row

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 2, rooms: 2, classes: 2 });
    as.ROOT = w.root;
    as.ADMIN = w.admin;
    as.SECRETARY = w.secretary;
    as.TEACHER = w.teachers[0]!.call;
    as.anonymous = callerOf(t, undefined);
    me = w.teachers[0]!.row;
    him = w.teachers[1]!.row;
    own = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: me.id, homework: 'αρχική' }));
    others = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: him.id, room_id: w.rooms[1]!.id, class_id: w.classes[1]!.id }));
    const seriesOf = (teacher: Row, room: Row, klass: Row, start: string) =>
      seriesCreate(w.admin, {
        start_time: '09:00',
        end_time: '10:00',
        teacher_id: teacher.id,
        room_id: room.id,
        class_id: klass.id,
        repeat: 'WEEKLY',
        start_date: start,
        end_type: 'AFTER',
        occurrences: 2,
      });
    ownSeries = (await seriesOf(me, w.rooms[0]!, w.classes[0]!, '2027-06-07')).data;
    otherSeries = (await seriesOf(him, w.rooms[1]!, w.classes[1]!, '2027-06-08')).data;
    x = await makeWorld(t, { tenant: 'lessother', teachers: 1, rooms: 1, classes: 1, subjects: 1 });
    foreignLesson = await makeLesson(x.admin, lessonBody(x, '2027-01-12'));
    foreignSeries = (
      await seriesCreate(x.admin, { start_time: '09:00', end_time: '10:00', repeat: 'DAILY', start_date: '2027-06-07', end_type: 'AFTER', occurrences: 2 })
    ).data;
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => as[who]!(method, url, body);
  const ids = (res: Response) => (json(res).data as Row[]).map((r) => r.id);
  /** The lesson ids of a calendar answer (a row of values per lesson, the id first by its column). */
  const calendarIds = (res: Response) => decodeCalendar(json(res) as CalendarAnswer).map((l) => l.id);
  function refuse(who: Who, res: Response, status: 403 | 404 = 403) {
    if (who === 'anonymous') expectError(res, 401, 'unauthorized');
    else expectError(res, status, status === 403 ? 'forbidden' : 'not-found');
  }

  describe('/api/lessons', () => {
    it.each(WHO)('list as %s: staff see all, a TEACHER only own lessons', async (who) => {
      const res = await call(who, 'GET', '/api/lessons?_end=200');
      if (who === 'anonymous') return refuse(who, res);
      expectStatus(res, 200);
      if (who === 'TEACHER') {
        expect(
          json(res).data.every((l: Row) => l.teacher_id === me.id),
          show(res),
        ).toBe(true);
        expect(ids(res)).toContain(own.id);
        expect(ids(res)).not.toContain(others.id);
        // asking for the other teacher gives nothing, not their lessons
        expect(json(await call(who, 'GET', `/api/lessons?teacher_id=${him.id}`)).total).toBe(0);
        expect(json(await call(who, 'GET', `/api/lessons?q=${encodeURIComponent('αρχική')}`)).data.map((l: Row) => l.id)).toEqual([own.id]);
      } else {
        expect(ids(res)).toEqual(expect.arrayContaining([own.id, others.id]));
        expect(ids(res)).not.toContain(foreignLesson.id);
      }
    });

    it.each(WHO)('calendar as %s: staff see all, a TEACHER only own lessons', async (who) => {
      const res = await call(who, 'GET', `/api/lessons/calendar?from=${own.date}&to=${others.date}`);
      if (who === 'anonymous') return refuse(who, res);
      expectStatus(res, 200);
      expect(calendarIds(res)).toEqual(who === 'TEACHER' ? [own.id] : [own.id, others.id]);
      if (who === 'TEACHER')
        expect(calendarIds(await call(who, 'GET', `/api/lessons/calendar?from=${own.date}&to=${others.date}&teacher_id=${him.id}`))).toEqual([]);
    });

    it.each(WHO)("read one as %s: a TEACHER reads own, others' are 404", async (who) => {
      const a = await call(who, 'GET', `/api/lessons/${own.id}`);
      const b = await call(who, 'GET', `/api/lessons/${others.id}`);
      if (who === 'anonymous') return (refuse(who, a), refuse(who, b));
      expectStatus(a, 200);
      expect(json(a).data.id).toBe(own.id);
      if (who === 'TEACHER') refuse(who, b, 404);
      else expectStatus(b, 200);
    });

    it.each(WHO)('create as %s: staff 201, TEACHER 403', async (who) => {
      const date = nextDate();
      const res = await call(who, 'POST', '/api/lessons', lessonBody(w, date, { teacher_id: me.id }));
      if (STAFF.includes(who)) {
        expectStatus(res, 201);
        expect((await historyOf(w.admin, 'lessons', json(res).id)).map((e) => e.action).sort()).toEqual(['create'].sort());
      } else {
        refuse(who, res);
        expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total).toBe(0);
      }
    });

    it.each(WHO)('update as %s: staff change anything; a TEACHER only homework and notes of own lessons', async (who) => {
      const lesson = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: me.id }));
      if (STAFF.includes(who)) {
        const res = await patchLesson(as[who]!, lesson.id, { start_time: '16:00', homework: `από ${who}` }, w.admin);
        expectStatus(res, 200);
        expect(json(res).data).toMatchObject({ start_time: '16:00', homework: `από ${who}`, version: lesson.version + 1 });
        const h = await historyOf(w.admin, 'lessons', lesson.id);
        expect(h.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'update']));
        expect(JSON.stringify(h)).toContain('16:00');
        return;
      }
      if (who === 'anonymous') return refuse(who, await call(who, 'PATCH', `/api/lessons/${lesson.id}`, { homework: 'x', version: lesson.version }));
      // TEACHER
      const hw = await call(who, 'PATCH', `/api/lessons/${lesson.id}`, { homework: 'Κεφάλαιο 3', notes: 'Καλή πρόοδος', version: lesson.version });
      expectStatus(hw, 200);
      expect(json(hw).data).toMatchObject({ homework: 'Κεφάλαιο 3', notes: 'Καλή πρόοδος', start_time: '17:00' });
      const now = await getLesson(w.admin, lesson.id);
      for (const body of [
        { start_time: '16:00' },
        { status: 'CANCELED' },
        { teacher_id: him.id },
        { room_id: w.rooms[1]!.id },
        { date: '2027-12-01' },
        { homework: 'και', end_time: '19:00' },
      ]) {
        refuse(who, await call(who, 'PATCH', `/api/lessons/${lesson.id}`, { ...body, version: now.version }), 403);
      }
      expect(await getLesson(w.admin, lesson.id)).toEqual(now);
      // another teacher's lesson is not there for them
      const theirs = await getLesson(w.admin, others.id);
      refuse(who, await call(who, 'PATCH', `/api/lessons/${others.id}`, { homework: 'ξένο', version: theirs.version }), 404);
      expect(await getLesson(w.admin, others.id)).toEqual(theirs);
      expect((await historyOf(w.admin, 'lessons', lesson.id)).map((e) => e.action).sort()).toEqual(['create', 'update'].sort());
    });

    it.each(WHO)("delete as %s: staff 204 (history recorded), TEACHER 403 on own, 404 on others'", async (who) => {
      const lesson = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: me.id }));
      const res = await call(who, 'DELETE', `/api/lessons/${lesson.id}`);
      if (STAFF.includes(who)) {
        expectStatus(res, 204);
        expectError(await w.admin('GET', `/api/lessons/${lesson.id}`), 404, 'not-found');
        expect((await historyOf(w.admin, 'lessons', lesson.id)).map((e) => e.action).sort()).toEqual(['create', 'delete'].sort());
        return;
      }
      refuse(who, res);
      await getLesson(w.admin, lesson.id);
      if (who === 'TEACHER') {
        const r = await call(who, 'DELETE', `/api/lessons/${others.id}`);
        expect([403, 404], show(r)).toContain(r.statusCode);
        await getLesson(w.admin, others.id);
      }
    });

    it('a TEACHER reads the history of own lessons only', async () => {
      expectStatus(await call('TEACHER', 'GET', `/api/history?entity=lessons&entity_id=${own.id}`), 200);
      const r = await call('TEACHER', 'GET', `/api/history?entity=lessons&entity_id=${others.id}`);
      expect([403, 404], show(r)).toContain(r.statusCode);
    });
  });

  describe('/api/recurring-lessons', () => {
    it.each(WHO)('list and read as %s: a TEACHER sees own series only', async (who) => {
      const list = await call(who, 'GET', '/api/recurring-lessons?_end=200');
      const a = await call(who, 'GET', `/api/recurring-lessons/${ownSeries.id}`);
      const b = await call(who, 'GET', `/api/recurring-lessons/${otherSeries.id}`);
      if (who === 'anonymous') return [list, a, b].forEach((r) => refuse(who, r));
      expectStatus(list, 200);
      expectStatus(a, 200);
      if (who === 'TEACHER') {
        expect(ids(list)).toEqual([ownSeries.id]);
        refuse(who, b, 404);
      } else {
        expect(ids(list)).toEqual(expect.arrayContaining([ownSeries.id, otherSeries.id]));
        expect(ids(list)).not.toContain(foreignSeries.id);
        expectStatus(b, 200);
      }
    });

    it.each(WHO)('create, update, delete as %s: staff only; every write of a TEACHER is 403', async (who) => {
      const start = nextDate();
      const body = { start_time: '20:00', end_time: '21:00', teacher_id: me.id, repeat: 'DAILY', start_date: start, end_type: 'AFTER', occurrences: 1 };
      const c = await call(who, 'POST', '/api/recurring-lessons', body);
      if (!STAFF.includes(who)) {
        refuse(who, c);
        const s = (await seriesCreate(w.admin, body)).data;
        refuse(who, await call(who, 'PATCH', `/api/recurring-lessons/${s.id}`, { notes: 'όχι', version: s.version }));
        refuse(who, await call(who, 'DELETE', `/api/recurring-lessons/${s.id}`));
        expect(json(await w.admin('GET', `/api/recurring-lessons/${s.id}`)).data).toEqual(s);
        return;
      }
      expectStatus(c, 201);
      const s = json(c).data;
      const u = await call(who, 'PATCH', `/api/recurring-lessons/${s.id}`, { notes: `από ${who}`, version: s.version });
      expectStatus(u, 200);
      expect(json(u).data.notes).toBe(`από ${who}`);
      expectStatus(await call(who, 'DELETE', `/api/recurring-lessons/${s.id}`), 204);
      expect((await historyOf(w.admin, 'recurring-lessons', s.id)).map((e) => e.action).sort()).toEqual(['create', 'update', 'delete'].sort());
    });
  });

  describe('calendar feed routes', () => {
    it.each(WHO)('/api/teachers/:id/calendar-feed as %s: staff for any teacher, a TEACHER only their own', async (who) => {
      for (const teacher of [me, him]) {
        const url = `/api/teachers/${teacher.id}/calendar-feed`;
        const mayUse = STAFF.includes(who) || (who === 'TEACHER' && teacher.id === me.id);
        const g = await call(who, 'GET', url);
        const p = await call(who, 'POST', url);
        const d = await call(who, 'DELETE', url);
        if (who === 'anonymous') {
          [g, p, d].forEach((r) => refuse(who, r));
          continue;
        }
        if (!mayUse) {
          [g, p, d].forEach((r) => refuse(who, r, 404));
          continue;
        }
        expectStatus(g, 200);
        expect(typeof json(g).data.active).toBe('boolean');
        expectStatus(p, 201);
        expect(json(p).data).toMatchObject({ active: true, url: expect.stringMatching(/\/ical\/[A-Za-z0-9_-]{43}\.ics$/) });
        expect(Number.isNaN(Date.parse(json(p).data.created_at))).toBe(false);
        expectStatus(d, 204);
        expect(json(await call(who, 'GET', url)).data).toEqual({ active: false, created_at: null });
      }
    });

    it.each(WHO)("/api/mydata/calendar-feed as %s: the signed-in TEACHER's own feed, 404 for other roles", async (who) => {
      const g = await call(who, 'GET', '/api/mydata/calendar-feed');
      if (who === 'anonymous') return refuse(who, g);
      if (who !== 'TEACHER') {
        refuse(who, g, 404);
        refuse(who, await call(who, 'POST', '/api/mydata/calendar-feed'), 404);
        refuse(who, await call(who, 'DELETE', '/api/mydata/calendar-feed'), 404);
        return;
      }
      expectStatus(g, 200);
      const p = await call(who, 'POST', '/api/mydata/calendar-feed');
      expectStatus(p, 201);
      // the same feed as /api/teachers/<own id>/calendar-feed
      expect(json(await w.admin('GET', `/api/teachers/${me.id}/calendar-feed`)).data).toEqual({ active: true, created_at: json(p).data.created_at });
      expectStatus(await call(who, 'DELETE', '/api/mydata/calendar-feed'), 204);
      expect(json(await call(who, 'GET', '/api/mydata/calendar-feed')).data.active).toBe(false);
    });
  });

  describe('the iCal feed', () => {
    const fetchIcs = (url: string, host = 'demo.localhost') => t.app.inject({ method: 'GET', url: new URL(url, 'http://x').pathname, headers: { host } });

    it("GET /ical/<secret>.ics needs no headers: 200 text/calendar with that teacher's lessons only; reset and revoke end old links; another centre's host is 404", async () => {
      const cancelled = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: me.id, notes: 'Σημείωση; με, ειδικούς\\χαρακτήρες' }));
      expectStatus(await patchLesson(w.admin, cancelled.id, { status: 'CANCELED' }), 200);
      const waiting = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: me.id }));
      expectStatus(await patchLesson(w.admin, waiting.id, { status: 'TO_BE_REPLACED' }), 200);

      const first = json(await w.admin('POST', `/api/teachers/${me.id}/calendar-feed`)).data.url as string;
      const res = await fetchIcs(first);
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.body.startsWith('BEGIN:VCALENDAR\r\n'), res.body.slice(0, 200)).toBe(true);
      expect(res.body.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
      // CRLF everywhere, folded at 75 octets
      for (const line of res.body.split('\r\n')) {
        expect(line.includes('\n'), line).toBe(false);
        expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
      }
      const events = vevents(res.body);
      const uids = events.map((e) => e.UID);
      expect(uids).toEqual(expect.arrayContaining([own.id, cancelled.id, waiting.id].map((id) => `lesson-${id}@demo.frontis`)));
      expect(uids).not.toContain(`lesson-${others.id}@demo.frontis`);
      const ownLessons = json(await w.admin('GET', `/api/lessons?teacher_id=${me.id}&_end=200`)).data as Row[];
      expect(
        uids.every((u) => ownLessons.some((l) => `lesson-${l.id}@demo.frontis` === u)),
        uids.join(' '),
      ).toBe(true);
      const ev = (id: number) => events.find((e) => e.UID === `lesson-${id}@demo.frontis`)!;
      expect(ev(own.id).STATUS).toBe('CONFIRMED');
      expect(ev(cancelled.id).STATUS).toBe('CANCELLED');
      expect(ev(waiting.id).STATUS).toBe('TENTATIVE');
      expect(ev(own.id).SUMMARY).toBe(`${w.subjects[0]!.name} — ${w.classes[0]!.name}`);
      expect(ev(own.id).LOCATION).toBe(w.rooms[0]!.name);
      expect(ev(own.id).DESCRIPTION).toContain('αρχική');
      expect(ev(cancelled.id).DESCRIPTION).toContain('Σημείωση\\; με\\, ειδικούς\\\\χαρακτήρες');
      // a January lesson at 17:00 Athens (EET, UTC+2) is 15:00Z
      expect(ev(own.id).DTSTART).toBe(`${own.date.replace(/-/g, '')}T150000Z`);

      // from 90 days back to 400 days ahead
      const today = new Date().toISOString().slice(0, 10);
      const window: Record<string, boolean> = {
        [addDays(today, -95)]: false,
        [addDays(today, -85)]: true,
        [addDays(today, 395)]: true,
        [addDays(today, 405)]: false,
      };
      const edge: Record<string, number> = {};
      for (const date of Object.keys(window))
        edge[date] = (await makeLesson(w.admin, lessonBody(w, date, { teacher_id: me.id, start_time: '06:00', end_time: '07:00' }))).id;
      const again = vevents((await fetchIcs(first)).body).map((e) => e.UID);
      for (const [date, shown] of Object.entries(window)) expect(again.includes(`lesson-${edge[date]}@demo.frontis`), `${date} shown: ${shown}`).toBe(shown);

      // the secret belongs to its centre
      expectStatus(await fetchIcs(first, 'lessother.localhost'), 404);
      // reset: a new link, the old one stops working
      const second = json(await w.admin('POST', `/api/teachers/${me.id}/calendar-feed`)).data.url as string;
      expect(second).not.toBe(first);
      expectStatus(await fetchIcs(first), 404);
      expectStatus(await fetchIcs(second), 200);
      // revoke
      expectStatus(await w.admin('DELETE', `/api/teachers/${me.id}/calendar-feed`), 204);
      expectStatus(await fetchIcs(second), 404);
      expectStatus(await fetchIcs('/ical/not-a-secret.ics'), 404);
      expectStatus(await fetchIcs(`/ical/${'A'.repeat(43)}.ics`), 404);
      for (const junk of [
        '/ical/.ics',
        '/ical/%00.ics',
        `/ical/${'x'.repeat(5000)}.ics`,
        '/ical/abc',
        '/ical/',
        "/ical/'%20OR%201=1.ics",
        '/ical/%E2%82%AC.ics',
      ]) {
        const r = await t.app.inject({ method: 'GET', url: junk, headers: { host: 'demo.localhost' } });
        expect(r.statusCode, `${junk}: ${show(r)}`).toBeGreaterThanOrEqual(400);
        expect(r.statusCode, `${junk}: ${show(r)}`).toBeLessThan(500);
      }
    });
  });

  describe('another centre', () => {
    it('its feed states its lessons in its own time zone, under its own slug, and only on its host', async () => {
      const tenants = json(await callerOf(t, w.rootToken)('GET', '/api/tenants?_end=200')).data as Row[];
      const other = tenants.find((r) => r.slug === 'lessother')!;
      expectStatus(await callerOf(t, w.rootToken)('PATCH', `/api/tenants/${other.id}`, { time_zone: 'Asia/Tokyo', version: other.version }), 200);
      const res = await x.admin('POST', `/api/teachers/${x.teachers[0]!.row.id}/calendar-feed`);
      expectStatus(res, 201);
      const path = new URL(json(res).data.url, 'http://x').pathname;
      const ics = await t.app.inject({ method: 'GET', url: path, headers: { host: 'lessother.localhost' } });
      expectStatus(ics, 200);
      const e = vevents(ics.body).find((v) => v.UID === `lesson-${foreignLesson.id}@lessother.frontis`);
      expect(e, ics.body.slice(0, 500)).toBeDefined();
      // 17:00 in Tokyo (UTC+9, no daylight saving) is 08:00Z
      expect(e!.DTSTART).toBe(`${foreignLesson.date.replace(/-/g, '')}T080000Z`);
      expect(e!.DTEND).toBe(`${foreignLesson.date.replace(/-/g, '')}T090000Z`);
      expectStatus(await t.app.inject({ method: 'GET', url: path, headers: { host: 'demo.localhost' } }), 404);
    });

    it('its lesson and series ids are 404 for every route and stay unchanged', async () => {
      for (const who of STAFF) {
        expectError(await call(who, 'GET', `/api/lessons/${foreignLesson.id}`), 404, 'not-found');
        expectError(await call(who, 'PATCH', `/api/lessons/${foreignLesson.id}`, { homework: 'ξένο', version: foreignLesson.version }), 404, 'not-found');
        expectError(await call(who, 'DELETE', `/api/lessons/${foreignLesson.id}`), 404, 'not-found');
        expectError(await call(who, 'GET', `/api/recurring-lessons/${foreignSeries.id}`), 404, 'not-found');
        expectError(
          await call(who, 'PATCH', `/api/recurring-lessons/${foreignSeries.id}`, { notes: 'ξένο', version: foreignSeries.version }),
          404,
          'not-found',
        );
        expectError(await call(who, 'DELETE', `/api/recurring-lessons/${foreignSeries.id}`), 404, 'not-found');
        expectError(await call(who, 'GET', `/api/teachers/${x.teachers[0]!.row.id}/calendar-feed`), 404, 'not-found');
        expectError(await call(who, 'POST', `/api/teachers/${x.teachers[0]!.row.id}/calendar-feed`), 404, 'not-found');
      }
      expect(await getLesson(x.admin, foreignLesson.id)).toEqual(foreignLesson);
      expect(json(await x.admin('GET', `/api/recurring-lessons/${foreignSeries.id}`)).data.version).toBe(foreignSeries.version);
      const cal = await w.admin('GET', `/api/lessons/calendar?from=${foreignLesson.date}&to=${foreignLesson.date}`);
      expect(calendarIds(cal)).not.toContain(foreignLesson.id);
    });

    it.each(['teacher_id', 'room_id', 'class_id', 'subject_id', 'lesson_type_id', 'replaces_lesson_id'])(
      'a reference to its %s is 400 invalid',
      async (field) => {
        const foreign: Record<string, number> = {
          teacher_id: x.teachers[0]!.row.id,
          room_id: x.rooms[0]!.id,
          class_id: x.classes[0]!.id,
          subject_id: x.subjects[0]!.id,
          lesson_type_id: x.lessonType.id,
          replaces_lesson_id: foreignLesson.id,
        };
        const date = nextDate();
        expectError(await w.admin('POST', '/api/lessons', lessonBody(w, date, { [field]: foreign[field] })), 400, 'validation', { [field]: 'invalid' });
        expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total).toBe(0);
        if (field !== 'replaces_lesson_id') {
          expectError(await patchLesson(w.admin, own.id, { [field]: foreign[field] }), 400, 'validation', { [field]: 'invalid' });
          expectError(
            await w.admin('POST', '/api/recurring-lessons', {
              start_time: '09:00',
              end_time: '10:00',
              repeat: 'DAILY',
              start_date: date,
              end_type: 'AFTER',
              occurrences: 1,
              [field]: foreign[field],
            }),
            400,
            'validation',
            { [field]: 'invalid' },
          );
        }
        const tags = await w.admin('POST', '/api/lessons', lessonBody(w, date, { tag_ids: [x.tag.id] }));
        const body = expectError(tags, 400, 'validation');
        expect(
          Object.keys(body.error.fields).some((k) => k.startsWith('tag_ids')),
          show(tags),
        ).toBe(true);
      },
    );
  });
});
