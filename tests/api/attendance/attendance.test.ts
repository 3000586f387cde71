// Attendance through the API: the roster of a lesson (its class's students plus anyone already
// marked), who may mark (the lesson's teacher, the office; another teacher 403), the history of
// each change, the list with its filters, the rates, the lessons' has_absences filter, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { callerOf, created, dateCursor, lessonBody, makeLesson, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';

describe.each(DATABASE_KINDS)('attendance on %s', (kind) => {
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-03-01');
  let members: Row[];
  let outsider: Row;

  const student = async (first: string, last: string, classIds: number[]) =>
    created(await w.admin('POST', '/api/students', { first_name: first, last_name: last, class_ids: classIds }), 'student');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { tenant: `att${kind === 'pglite' ? 'a' : 'b'}`, teachers: 2 });
    members = [
      await student('Άννα', 'Βλάχου', [w.classes[0]!.id]),
      await student('Βασίλης', 'Αθανασίου', [w.classes[0]!.id]),
      await student('Γιώργος', 'Γεωργίου', [w.classes[0]!.id]),
    ];
    outsider = await student('Δήμητρα', 'Δούκα', [w.classes[1]!.id]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const put = (call: World['admin'], lessonId: number, marks: Row[]) => call('PUT' as 'PATCH', `/api/lessons/${lessonId}/attendance`, { marks });

  it("the roster is the class's students in name order, each without a mark, until marked", async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const roster = ok(await w.teachers[0]!.call('GET', `/api/lessons/${lesson.id}/attendance`));
    expect(roster.lesson.id).toBe(lesson.id);
    expect(roster.students.map((s: Row) => s.student.name)).toEqual(['Βασίλης Αθανασίου', 'Άννα Βλάχου', 'Γιώργος Γεωργίου']);
    expect(roster.students.every((s: Row) => s.mark === null && s.in_class)).toBe(true);
    // A teacher sees names only: nothing of contacts or guardians in the roster.
    expect(Object.keys(roster.students[0].student).sort()).toEqual(['id', 'name']);
  });

  it('the lesson teacher marks; the roster shows each mark; a student marked and then moved out stays on it', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const teacher = w.teachers[0]!;
    const res = await put(teacher.call, lesson.id, [
      { student_id: members[0]!.id, status: 'PRESENT' },
      { student_id: members[1]!.id, status: 'LATE', note: 'Ήρθε 10 λεπτά αργότερα' },
      { student_id: members[2]!.id, status: 'EXCUSED' },
    ]);
    const roster = ok(res, 'marks');
    const byId = new Map(roster.students.map((s: Row) => [s.student_id, s]));
    expect((byId.get(members[0]!.id) as Row).mark.status).toBe('PRESENT');
    expect((byId.get(members[1]!.id) as Row).mark).toMatchObject({ status: 'LATE', note: 'Ήρθε 10 λεπτά αργότερα', marked_by_name: teacher.name });
    // Moving a student out of the class keeps her mark on the lesson's roster.
    const moved = ok(await w.admin('GET', `/api/students/${members[2]!.id}`));
    ok(await w.admin('PATCH', `/api/students/${members[2]!.id}`, { class_ids: [w.classes[1]!.id], version: moved.version }), 'move');
    const after = ok(await w.admin('GET', `/api/lessons/${lesson.id}/attendance`));
    const left = after.students.find((s: Row) => s.student_id === members[2]!.id);
    expect(left).toMatchObject({ in_class: false, mark: { status: 'EXCUSED' } });
    ok(await w.admin('PATCH', `/api/students/${members[2]!.id}`, { class_ids: [w.classes[0]!.id], version: moved.version + 1 }), 'move back');
  });

  it('another teacher is refused (403); ADMIN, SECRETARY and ROOT mark any lesson', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const other = w.teachers[1]!;
    const refused = await put(other.call, lesson.id, [{ student_id: members[0]!.id, status: 'PRESENT' }]);
    expect(refused.statusCode, show(refused)).toBe(403);
    expect(json(refused).error.code).toBe('forbidden');
    expect((await other.call('GET', `/api/lessons/${lesson.id}/attendance`)).statusCode).toBe(403);
    for (const [who, call] of [
      ['admin', w.admin],
      ['secretary', w.secretary],
      ['root', w.root],
    ] as const) {
      const status = who === 'admin' ? 'PRESENT' : who === 'secretary' ? 'LATE' : 'EXCUSED';
      const roster = ok(await put(call, lesson.id, [{ student_id: members[0]!.id, status }]), who);
      expect(roster.students.find((s: Row) => s.student_id === members[0]!.id).mark.status).toBe(status);
    }
  });

  it('each change is in the history with the student name; unchanged marks add nothing', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const first = ok(await put(w.secretary, lesson.id, [{ student_id: members[0]!.id, status: 'ABSENT' }]));
    const markId = first.students.find((s: Row) => s.student_id === members[0]!.id).mark.id;
    ok(await put(w.secretary, lesson.id, [{ student_id: members[0]!.id, status: 'ABSENT' }]));
    ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: members[0]!.id, status: 'EXCUSED', note: 'Γιατρός' }]));
    const hist = json(await w.admin('GET', `/api/history?entity=attendance&entity_id=${markId}`));
    expect(hist.total).toBe(2);
    const [latest, createdEntry] = hist.data as Row[];
    expect(createdEntry!.action).toBe('create');
    expect(createdEntry!.changes.status).toEqual({ old: null, new: 'ABSENT' });
    expect(createdEntry!.changes.student.new).toBe('Άννα Βλάχου');
    expect(latest!.action).toBe('update');
    expect(latest!.changes.status).toEqual({ old: 'ABSENT', new: 'EXCUSED' });
    expect(latest!.changes.note).toEqual({ old: null, new: 'Γιατρός' });
    expect(latest!.changes.student.new).toBe('Άννα Βλάχου');
    expect(latest!.user.name).toBe(w.teachers[0]!.name);
    // The lesson's teacher reads it; another teacher does not find it.
    expect(json(await w.teachers[0]!.call('GET', `/api/history?entity=attendance&entity_id=${markId}`)).total).toBe(2);
    expect((await w.teachers[1]!.call('GET', `/api/history?entity=attendance&entity_id=${markId}`)).statusCode).toBe(404);
  });

  it('bad input is 400 with the field; an unknown lesson 404', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const cases: [unknown, string][] = [
      [{ marks: [{ student_id: outsider.id, status: 'PRESENT' }] }, 'marks.0.student_id'],
      [
        {
          marks: [
            { student_id: members[0]!.id, status: 'PRESENT' },
            { student_id: members[0]!.id, status: 'ABSENT' },
          ],
        },
        'marks.1.student_id',
      ],
      [{ marks: [{ student_id: members[0]!.id, status: 'ASLEEP' }] }, 'marks.0.status'],
      [{ marks: [] }, 'marks'],
      [{ marks: [{ student_id: 'x', status: 'PRESENT' }] }, 'marks.0.student_id'],
      [{ marks: [{ student_id: members[0]!.id, status: 'PRESENT', extra: 1 }] }, 'marks.0'],
      [{}, 'marks'],
    ];
    for (const [body, field] of cases) {
      const res = await w.admin('PUT' as 'PATCH', `/api/lessons/${lesson.id}/attendance`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${show(res)}`).toBe(400);
      const error = json(res).error;
      expect(error.code).toBe('validation');
      expect(
        Object.keys(error.fields ?? {}).some((k) => k.startsWith(field)),
        `${field} in ${JSON.stringify(error.fields)}`,
      ).toBe(true);
    }
    expect((await w.admin('GET', '/api/lessons/999999/attendance')).statusCode).toBe(404);
    expect((await w.admin('GET', '/api/attendance?date_gte=2027-13-01')).statusCode).toBe(400);
    expect((await w.admin('GET', '/api/attendance?_sort=nonsense')).statusCode).toBe(400);
    expect((await w.admin('GET', '/api/attendance/rates?student_id=abc')).statusCode).toBe(400);
    // Nothing was written by the refused requests.
    const roster = ok(await w.admin('GET', `/api/lessons/${lesson.id}/attendance`));
    expect(roster.students.every((s: Row) => s.mark === null)).toBe(true);
  });

  it('the list filters by student, class and dates, pages with its total; the rates count each status', async () => {
    const extra = await student('Ευτυχία', 'Ευαγγέλου', [w.classes[1]!.id]);
    const dates = [nextDate(), nextDate(), nextDate(), nextDate()];
    const statuses = ['PRESENT', 'ABSENT', 'LATE', 'PRESENT'];
    for (const [i, date] of dates.entries()) {
      const lesson = await makeLesson(w.admin, lessonBody(w, date, { class_id: w.classes[1]!.id }));
      ok(await put(w.admin, lesson.id, [{ student_id: extra.id, status: statuses[i] }]));
    }
    const all = await w.admin('GET', `/api/attendance?student_id=${extra.id}&_start=0&_end=3`);
    expect(all.statusCode, show(all)).toBe(200);
    expect(json(all).total).toBe(4);
    expect(all.headers['x-total-count']).toBe('4');
    expect(json(all).data).toHaveLength(3);
    // Newest lesson first by default.
    expect(json(all).data.map((r: Row) => r.date)).toEqual([dates[3], dates[2], dates[1]]);
    expect(json(all).data[0]).toMatchObject({ student: { id: extra.id, name: 'Ευτυχία Ευαγγέλου' }, class_id: w.classes[1]!.id });
    const ranged = json(await w.admin('GET', `/api/attendance?class_id=${w.classes[1]!.id}&date_gte=${dates[1]}&date_lte=${dates[2]}&_sort=date&_order=asc`));
    expect(ranged.data.map((r: Row) => [r.date, r.status])).toEqual([
      [dates[1], 'ABSENT'],
      [dates[2], 'LATE'],
    ]);
    const rates = ok(await w.admin('GET', `/api/attendance/rates?student_id=${extra.id}`));
    expect(rates).toEqual({ total: 4, counts: { PRESENT: 2, ABSENT: 1, LATE: 1, EXCUSED: 0 }, rate: 0.75 });
    const narrow = ok(await w.admin('GET', `/api/attendance/rates?class_id=${w.classes[1]!.id}&from=${dates[1]}&to=${dates[1]}`));
    expect(narrow).toEqual({ total: 1, counts: { PRESENT: 0, ABSENT: 1, LATE: 0, EXCUSED: 0 }, rate: 0 });
    const none = ok(await w.admin('GET', `/api/attendance/rates?student_id=${extra.id}&from=2030-01-01`));
    expect(none.rate).toBeNull();
  });

  it("a teacher's list holds only her own lessons' marks", async () => {
    const mine = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const theirs = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: w.teachers[1]!.row.id }));
    ok(await put(w.admin, mine.id, [{ student_id: members[1]!.id, status: 'PRESENT' }]));
    ok(await put(w.admin, theirs.id, [{ student_id: members[1]!.id, status: 'ABSENT' }]));
    const seen = json(await w.teachers[0]!.call('GET', `/api/attendance?student_id=${members[1]!.id}&_end=200`));
    const lessonIds = new Set(seen.data.map((r: Row) => r.lesson_id));
    expect(lessonIds.has(mine.id)).toBe(true);
    expect(lessonIds.has(theirs.id)).toBe(false);
    const everything = json(await w.admin('GET', `/api/attendance?student_id=${members[1]!.id}&_end=200`));
    expect(everything.data.some((r: Row) => r.lesson_id === theirs.id)).toBe(true);
    // Her count and her rates are of her lessons too, though the filter names only marks.
    expect(seen.total).toBe(seen.data.length);
    const absent = json(await w.teachers[0]!.call('GET', `/api/attendance?status=ABSENT&_end=200`));
    expect(absent.total).toBe(absent.data.length);
    expect(absent.data.some((r: Row) => r.lesson_id === theirs.id)).toBe(false);
    const rates = ok(await w.teachers[0]!.call('GET', `/api/attendance/rates?student_id=${members[1]!.id}`));
    expect(rates.total).toBe(seen.total);
  });

  it("every list's total is the number of marks it holds, whether its filters name the lesson or only the mark", async () => {
    const all = json(await w.admin('GET', '/api/attendance?_end=200')).data as Row[];
    expect(all.length).toBeGreaterThan(3);
    const someDate = all[Math.floor(all.length / 2)]!.date as string;
    const queries = [
      '',
      'status=ABSENT',
      'status=PRESENT&status=LATE',
      `student_id=${members[0]!.id}`,
      `class_id=${w.classes[1]!.id}`,
      `date_gte=${someDate}`,
      `status=ABSENT&date_lte=${someDate}`,
    ];
    for (const query of queries) {
      const page = json(await w.admin('GET', `/api/attendance?${query}&_start=0&_end=1`));
      const rows = json(await w.admin('GET', `/api/attendance?${query}&_end=200`)).data as Row[];
      expect(page.total, query).toBe(rows.length);
      if (query.includes('status')) continue;
      const rates = ok(await w.admin('GET', `/api/attendance/rates?${query.replace('date_gte', 'from').replace('date_lte', 'to')}`));
      expect(rates.total, query).toBe(rows.length);
    }
  });

  it('lessons filter by has_absences', async () => {
    const day = nextDate();
    const withAbsence = await makeLesson(w.admin, lessonBody(w, day, { start_time: '09:00', end_time: '10:00' }));
    const allPresent = await makeLesson(w.admin, lessonBody(w, day, { start_time: '11:00', end_time: '12:00' }));
    const unmarked = await makeLesson(w.admin, lessonBody(w, day, { start_time: '13:00', end_time: '14:00' }));
    ok(
      await put(w.admin, withAbsence.id, [
        { student_id: members[0]!.id, status: 'ABSENT' },
        { student_id: members[1]!.id, status: 'PRESENT' },
      ]),
    );
    ok(await put(w.admin, allPresent.id, [{ student_id: members[0]!.id, status: 'PRESENT' }]));
    const ids = async (flag: string) => {
      const res = await w.admin('GET', `/api/lessons?date=${day}&has_absences=${flag}`);
      expect(res.statusCode, show(res)).toBe(200);
      return json(res)
        .data.map((r: Row) => r.id)
        .sort();
    };
    expect(await ids('true')).toEqual([withAbsence.id]);
    expect(await ids('false')).toEqual([allPresent.id, unmarked.id].sort());
    expect((await w.admin('GET', `/api/lessons?has_absences=maybe`)).statusCode).toBe(400);
  });

  it("another centre's lesson is not found", async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const other = await t.createTenant(`attx${kind === 'pglite' ? 'a' : 'b'}`);
    const call = callerOf(t, other.admin.token, `attx${kind === 'pglite' ? 'a' : 'b'}`);
    expect((await call('GET', `/api/lessons/${lesson.id}/attendance`)).statusCode).toBe(404);
    expect((await put(call, lesson.id, [{ student_id: members[0]!.id, status: 'ABSENT' }])).statusCode).toBe(404);
  });
});
