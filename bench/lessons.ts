/**
 * The lessons part of npm run bench: a school year of lessons seeded through the series API
 * (as a centre would enter its timetable), the calendar's week query, and the time to create
 * one weekly series for a school year.
 *
 * Timetable: TRIPLES rooms, each with its own teacher and class, taught Monday to Saturday in
 * HOURS one-hour slots from 14:00, for SCHOOL_WEEKS weeks: 26 × 8 × 6 × 40 = 49,920 lessons,
 * about 1,250 in any week.
 */
/** The most JSON a week of 1,248 lessons may answer before compression, in KB. */
export const WEEK_ANSWER_LIMIT_KB = 150;
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';

const SCHOOL_YEAR = { from: '2026-09-14', to: '2027-06-19' };
/** A week in the middle of the term: Monday to Sunday. */
export const BENCH_WEEK = { from: '2026-11-16', to: '2026-11-22' };
const TRIPLES = 26;
const HOURS = 8;

type Json = Record<string, unknown>;

async function call(address: string, headers: Record<string, string>, path: string, body: unknown): Promise<Json> {
  const res = await fetch(address + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return res.json() as Promise<Json>;
}

const pad = (n: number) => String(n).padStart(2, '0');
const time = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

interface Timetable {
  rooms: number[];
  teachers: number[];
  classes: number[];
  lessons: number;
}

/** Seeds the timetable into the tenant of `headers`; returns its ids and how many lessons. */
export async function seedLessons(address: string, headers: Record<string, string>): Promise<Timetable> {
  const subjects = ['Μαθηματικά', 'Φυσική', 'Χημεία', 'Έκθεση', 'Αγγλικά', 'Βιολογία'];
  const colors = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2'];
  const subjectIds: number[] = [];
  for (const [i, name] of subjects.entries()) subjectIds.push(Number((await call(address, headers, '/api/subjects', { name, color: colors[i] })).id));
  const typeIds: number[] = [];
  for (const [i, name] of ['Θεωρία', 'Ασκήσεις', 'Διαγώνισμα'].entries()) {
    typeIds.push(Number((await call(address, headers, '/api/lesson-types', { name, color: colors[i + 2] })).id));
  }
  const table: Timetable = { rooms: [], teachers: [], classes: [], lessons: 0 };
  for (let k = 0; k < TRIPLES; k++) {
    table.rooms.push(Number((await call(address, headers, '/api/rooms', { name: `Αίθουσα ${k + 1}`, capacity: 12 })).id));
    table.classes.push(Number((await call(address, headers, '/api/classes', { name: `Τμήμα ${k + 1}` })).id));
    const teacher = await call(address, headers, '/api/teachers', {
      username: `bench.teacher${k}`,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Καθηγητής',
      last_name: `Νο ${k + 1}`,
    });
    table.teachers.push(Number(teacher.id));
  }
  for (let k = 0; k < TRIPLES; k++) {
    for (let h = 0; h < HOURS; h++) {
      const series = await call(address, headers, '/api/recurring-lessons', {
        start_time: time((14 + h) * 60),
        end_time: time((15 + h) * 60),
        room_id: table.rooms[k],
        teacher_id: table.teachers[k],
        class_id: table.classes[k],
        subject_id: subjectIds[(k + h) % subjectIds.length],
        lesson_type_id: typeIds[h % typeIds.length],
        repeat: 'WEEKLY',
        repeat_every: 1,
        weekdays: [1, 2, 3, 4, 5, 6],
        start_date: SCHOOL_YEAR.from,
        end_type: 'ON_DATE',
        until_date: SCHOOL_YEAR.to,
      });
      table.lessons += (series.lesson_ids as number[]).length;
    }
  }
  return table;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Creates `count` weekly series for the school year, one after the other (Sundays, ten-minute
 * slots from 08:00, in the first room, so none conflicts), and times each request.
 */
export async function timeSeriesCreation(address: string, headers: Record<string, string>, table: Timetable, count: number) {
  const ms: number[] = [];
  let lessons = 0;
  for (let k = 0; k < count; k++) {
    const body = {
      start_time: time(8 * 60 + 10 * k),
      end_time: time(8 * 60 + 10 * k + 10),
      room_id: table.rooms[0],
      teacher_id: table.teachers[0],
      class_id: table.classes[0],
      repeat: 'WEEKLY',
      weekdays: [7],
      start_date: SCHOOL_YEAR.from,
      end_type: 'ON_DATE',
      until_date: SCHOOL_YEAR.to,
    };
    const t0 = performance.now();
    const series = await call(address, headers, '/api/recurring-lessons', body);
    ms.push(performance.now() - t0);
    lessons = (series.lesson_ids as number[]).length;
  }
  ms.sort((a, b) => a - b);
  return { count, lessonsEach: lessons, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * The calendar week right after the calendar changed (a room renamed in between, not timed),
 * so each request builds the week instead of taking it from the cache.
 */
export async function timeWeekAfterChange(address: string, headers: Record<string, string>, table: Timetable, url: string, count: number) {
  const ms: number[] = [];
  const room = `/api/rooms/${table.rooms[0]}`;
  for (let k = 0; k < count; k++) {
    const { data } = (await (await fetch(address + room, { headers })).json()) as { data: { version: number } };
    const res = await fetch(address + room, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Αίθουσα 1 (${k})`, version: data.version }),
    });
    if (!res.ok) throw new Error(`${room} answered ${res.status}`);
    const t0 = performance.now();
    const week = await fetch(address + url, { headers });
    await week.text();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { count, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * The calendar week's answer as a client without compression receives it (autocannon, the
 * load test) and as a browser does (gzipped), in KB, with its lesson count.
 */
export async function weekAnswerSize(address: string, headers: Record<string, string>, url: string) {
  const res = await fetch(address + url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  const { total } = JSON.parse(body.toString('utf8')) as { total: number };
  return { total, kb: body.length / 1024, gzippedKb: gzipSync(body).length / 1024 };
}
