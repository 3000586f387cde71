// Fixtures for the lessons API tests: a centre with teachers (each also a
// TEACHER sign-in), rooms, classes, subjects, a lesson type and a tag, all made through the API.
import { expect } from 'vitest';
import type { Response } from 'light-my-request';
import type { TestApp } from './harness';
import { json, show } from './api-helpers';
import { addDays } from '../../../domain/lessons';

export type Row = Record<string, any>;
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type Call = (method: Method, url: string, body?: unknown) => Promise<Response>;

export const TEACHER_PASSWORD = 'teacher-password-1';

/** A caller with this bearer token on this tenant (api client type). */
export const callerOf =
  (t: TestApp, token: string | undefined, tenant = 'demo'): Call =>
  (method, url, body) =>
    t.request({ method, url, body, token, tenant, clientType: 'api' });

/** Asserts a 201 and returns `data`. */
export function created(res: Response, what = 'row'): Row {
  expect(res.statusCode, `${what}: ${show(res)}`).toBe(201);
  return json(res).data as Row;
}

/** Asserts a 200 and returns `data`. */
export function ok(res: Response, what = 'answer'): any {
  expect(res.statusCode, `${what}: ${show(res)}`).toBe(200);
  return json(res).data;
}

let seq = 0;
const letters = (n: number) => {
  let s = '';
  do {
    s = 'abcdefghijklmnopqrstuvwxyz'[n % 26] + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
};
/** A fresh lower-case token (letters only) for usernames and names. */
export const fresh = (prefix: string) => `${prefix}${letters(Date.now() % 100_000)}${letters(seq++)}`;

export interface Teacher {
  row: Row;
  username: string;
  token: string;
  call: Call;
  name: string;
}

export async function createTeacher(t: TestApp, call: Call, first = 'Μαρία', last = 'Παπαδοπούλου', tenant = 'demo'): Promise<Teacher> {
  const username = fresh('lt');
  const row = created(
    await call('POST', '/api/teachers', { username, password: TEACHER_PASSWORD, confirm_password: TEACHER_PASSWORD, first_name: first, last_name: last }),
    'teacher',
  );
  const session = await t.signIn(username, TEACHER_PASSWORD, tenant);
  expect(session.user.role).toBe('TEACHER');
  return { row, username, token: session.token, call: callerOf(t, session.token, tenant), name: `${first} ${last}` };
}

export const createRoom = async (call: Call, name = fresh('Αίθουσα ')) => created(await call('POST', '/api/rooms', { name, capacity: 12 }), 'room');
export const createClass = async (call: Call, name = fresh('Τμήμα ')) => created(await call('POST', '/api/classes', { name }), 'class');
const createSubject = async (call: Call, name = fresh('Μάθημα ')) => created(await call('POST', '/api/subjects', { name, color: '#225588' }), 'subject');
export const createLessonType = async (call: Call, color = '#cc3344', name = fresh('Τύπος ')) =>
  created(await call('POST', '/api/lesson-types', { name, color, entity: 'NORMAL' }), 'lesson type');
const createTag = async (call: Call, name = fresh('Ετικέτα ')) => created(await call('POST', '/api/lesson-tags', { name, color: '#00aa00' }), 'tag');

export interface World {
  t: TestApp;
  tenant: string;
  rootToken: string;
  adminToken: string;
  secretaryToken: string;
  root: Call;
  admin: Call;
  secretary: Call;
  teachers: Teacher[];
  rooms: Row[];
  classes: Row[];
  subjects: Row[];
  lessonType: Row;
  tag: Row;
}

/**
 * A centre to book lessons in: on `demo` by default (ROOT signs in there), or a tenant of its own
 * (`tenant`), made by ROOT, whose ADMIN makes the rest.
 */
export async function makeWorld(
  t: TestApp,
  opts: { teachers?: number; rooms?: number; classes?: number; subjects?: number; tenant?: string } = {},
): Promise<World> {
  const tenant = opts.tenant ?? 'demo';
  const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
  let adminToken: string;
  let rootOnTenant = rootToken;
  if (tenant === 'demo') {
    adminToken = (await t.createUser(rootToken, { role: 'ADMIN', username: fresh('ladmin') })).token;
  } else {
    adminToken = (await t.createTenant(tenant)).admin.token;
    rootOnTenant = (await t.signIn(t.root.username, t.root.password, tenant)).token;
  }
  const admin = callerOf(t, adminToken, tenant);
  const sec = await admin('POST', '/api/users', {
    username: fresh('lsec'),
    password: 'user-password-1',
    role: 'SECRETARY',
    first_name: 'Γραμματέας',
    last_name: 'Κέντρου',
  });
  const secRow = created(sec, 'secretary');
  const secretaryToken = (await t.signIn(secRow.username, 'user-password-1', tenant)).token;
  const teachers: Teacher[] = [];
  const FIRST = ['Μαρία', 'Γιάννης', 'Ελένη', 'Νίκος', 'Σοφία', 'Κώστας'];
  for (let i = 0; i < (opts.teachers ?? 2); i++) teachers.push(await createTeacher(t, admin, FIRST[i % FIRST.length], `Καθηγητής${letters(i)}`, tenant));
  const rooms: Row[] = [];
  for (let i = 0; i < (opts.rooms ?? 2); i++) rooms.push(await createRoom(admin, `Αίθουσα ${i + 1} ${fresh('')}`));
  const classes: Row[] = [];
  for (let i = 0; i < (opts.classes ?? 2); i++) classes.push(await createClass(admin, `Τμήμα ${i + 1} ${fresh('')}`));
  const subjects: Row[] = [];
  for (let i = 0; i < (opts.subjects ?? 2); i++) subjects.push(await createSubject(admin, `Μάθημα ${i + 1} ${fresh('')}`));
  return {
    t,
    tenant,
    rootToken: rootOnTenant,
    adminToken,
    secretaryToken,
    root: callerOf(t, rootOnTenant, tenant),
    admin,
    secretary: callerOf(t, secretaryToken, tenant),
    teachers,
    rooms,
    classes,
    subjects,
    lessonType: await createLessonType(admin),
    tag: await createTag(admin),
  };
}

/** Distinct dates, one per call, so tests of one file never share a day (and so never clash). */
export function dateCursor(start = '2027-02-01') {
  let i = 0;
  return () => addDays(start, i++);
}

/** A lesson body: teacher 0, room 0, class 0, subject 0, the lesson type, 17:00–18:00. */
export function lessonBody(w: World, date: string, over: Row = {}): Row {
  return {
    date,
    start_time: '17:00',
    end_time: '18:00',
    teacher_id: w.teachers[0]!.row.id,
    room_id: w.rooms[0]!.id,
    class_id: w.classes[0]!.id,
    subject_id: w.subjects[0]!.id,
    lesson_type_id: w.lessonType.id,
    ...over,
  };
}

export async function makeLesson(call: Call, body: Row): Promise<Row> {
  const res = await call('POST', '/api/lessons', body);
  expect(res.statusCode, `lesson ${JSON.stringify(body)}: ${show(res)}`).toBe(201);
  const out = json(res);
  expect(out.id, show(res)).toBe(out.data.id);
  return out.data as Row;
}

export async function getLesson(call: Call, id: number): Promise<Row> {
  return ok(await call('GET', `/api/lessons/${id}`), `lesson ${id}`) as Row;
}

/** PATCH with the row's current version. */
export async function patchLesson(call: Call, id: number, body: Row, versionCall: Call = call): Promise<Response> {
  const { version } = await getLesson(versionCall, id);
  return call('PATCH', `/api/lessons/${id}`, { ...body, version });
}

/** Moves a lesson to a status through allowed steps (TO_BE_REPLACED, CANCELED) or via a replacement (REPLACED). */
export async function bringTo(call: Call, lesson: Row, status: string, replacementBody?: Row): Promise<Row> {
  const step = async (to: string) => {
    const res = await patchLesson(call, lesson.id, { status: to });
    expect(res.statusCode, `${lesson.id} -> ${to}: ${show(res)}`).toBe(200);
  };
  if (status === 'TO_BE_REPLACED') await step('TO_BE_REPLACED');
  else if (status === 'CANCELED') await step('CANCELED');
  else if (status === 'REPLACED') {
    await step('TO_BE_REPLACED');
    await makeLesson(call, { ...replacementBody!, replaces_lesson_id: lesson.id });
  }
  return getLesson(call, lesson.id);
}

export async function seriesCreate(call: Call, body: Row): Promise<{ id: number; data: Row; lesson_ids: number[] }> {
  const res = await call('POST', '/api/recurring-lessons', body);
  expect(res.statusCode, `series ${JSON.stringify(body)}: ${show(res)}`).toBe(201);
  const out = json(res);
  expect(Array.isArray(out.lesson_ids), show(res)).toBe(true);
  return out;
}

/** Every lesson of a series, by date. */
export async function seriesLessons(call: Call, seriesId: number): Promise<Row[]> {
  const res = await call('GET', `/api/lessons?recurring_lesson_id=${seriesId}&_start=0&_end=200&_sort=date&_order=asc`);
  expect(res.statusCode, show(res)).toBe(200);
  return json(res).data as Row[];
}

export async function historyOf(call: Call, entity: string, id: number): Promise<Row[]> {
  const res = await call('GET', `/api/history?entity=${entity}&entity_id=${id}&_end=200`);
  expect(res.statusCode, show(res)).toBe(200);
  return json(res).data as Row[];
}

/** Unfolds an iCal text and returns its VEVENTs as maps of property name (without parameters) to value. */
export function vevents(ics: string): Record<string, string>[] {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  const out: Record<string, string>[] = [];
  let cur: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') cur = {};
    else if (line === 'END:VEVENT') {
      if (cur) out.push(cur);
      cur = null;
    } else if (cur) {
      const i = line.indexOf(':');
      cur[line.slice(0, i).split(';')[0]!] = line.slice(i + 1);
    }
  }
  return out;
}
