// What a TEACHER receives of the students of her classes: their first and last names, and
// nothing else of them, however she asks. A centre is seeded with students full of distinctive
// values (contacts, guardian, custom field, information, contracts, payments, a note), then
// every GET route the server registers is walked as the TEACHER (read from the server's own
// route table, so a route added later is walked too), with the seeded rows' ids, searches for
// each hidden value and queries naming hidden fields; no answer may hold any hidden value.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../domain/index';
import { expectError, json, routeTable } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { examEntity } from '../../../bench/exam-entity';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';

/** Every GET path template the app registers. */
const getRoutes = (app: FastifyInstance): string[] => [
  ...new Set(
    routeTable(app)
      .filter((r) => r.method === 'GET')
      .map((r) => r.path),
  ),
];

interface Answer {
  url: string;
  status: number;
  body: string;
}

describe.each(DATABASE_KINDS)('what a TEACHER receives of her students on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let base: string;
  let mine: Row;
  let guardian: Row;
  let theirs: Row;
  const ids: Record<string, number[]> = {};
  const nextDate = dateCursor('2027-03-01');
  const SLUG = `vis${kind === 'pglite' ? 'a' : 'b'}`;

  // Values only staff may read: none of them may reach the TEACHER in any answer.
  const HIDDEN = {
    email: 'kryfo.mail@example.org',
    phone: '+30 699 111 2233',
    oldPhone: '+30 699 444 5566',
    guardianName: 'Θεμιστοκλής Κηδεμόνας',
    guardianPhone: '+30 698 777 8899',
    information: 'ΑπόρρητηΠληροφορία',
    inactiveReason: 'ΚρυφόςΛόγος',
    custom: 'ΚρυφήΑλλεργία',
    birthDate: '2011-03-17',
    contractStart: '2019-02-13',
    monthCost: '98765',
    paymentAmount: '87654',
    officeNote: 'ΣημείωσηΓραφείου',
    // A student of another teacher's class: not even her name.
    otherFirst: 'Ιφιγένεια',
    otherLast: 'Αθέατη',
  } as const;
  const hidden = Object.values(HIDDEN);

  const teacher = () => w.teachers[0]!;
  /** One GET as the TEACHER over real HTTP; an event stream is read up to its first message. */
  async function get(url: string): Promise<Answer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    try {
      const res = await fetch(`${base}${url}`, {
        headers: { 'x-client-type': 'api', 'x-tenant-id': w.tenant, authorization: `Bearer ${teacher().token}` },
        signal: controller.signal,
        redirect: 'manual',
      });
      let body = '';
      if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        try {
          while (!/data: .*\n\n/.test(body)) {
            const { value, done } = await reader.read();
            if (done) break;
            body += decoder.decode(value, { stream: true });
          }
        } catch {
          // cut off after five seconds: what came so far is checked
        }
        controller.abort();
      } else body = await res.text();
      return { url, status: res.status, body };
    } finally {
      clearTimeout(timer);
    }
  }
  /** The hidden values an answer holds, as sent and with JSON's escapes undone. */
  function leaks(answer: Answer): string[] {
    let decoded = answer.body;
    try {
      decoded = JSON.stringify(JSON.parse(answer.body));
    } catch {
      // not JSON: the text as sent
    }
    return hidden.filter((value) => answer.body.includes(value) || decoded.includes(value));
  }

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 2, classes: 2 });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [myClass, theirClass] = w.classes;
    created(await w.admin('POST', '/api/student-custom-fields', { key: 'allergy', label: 'Αλλεργία', type: 'TEXT' }));
    mine = created(
      await w.admin('POST', '/api/students', {
        first_name: 'Ζωή',
        last_name: 'Ορατή',
        email: HIDDEN.email,
        phone: HIDDEN.oldPhone,
        birth_date: HIDDEN.birthDate,
        information: HIDDEN.information,
        custom_fields: { allergy: HIDDEN.custom },
        class_ids: [myClass!.id],
      }),
    );
    // Her guardian: a row of its own, linked to her.
    const [guardianFirst, guardianLast] = HIDDEN.guardianName.split(' ');
    guardian = created(
      await w.admin('POST', '/api/guardians', { first_name: guardianFirst, last_name: guardianLast, phone: HIDDEN.guardianPhone, student_ids: [mine.id] }),
    );
    mine = ok(await w.admin('GET', `/api/students/${mine.id}`));
    // A change of a hidden field and of a name: the history holds both.
    mine = ok(await w.admin('PATCH', `/api/students/${mine.id}`, { phone: HIDDEN.phone, version: mine.version }));
    mine = ok(await w.admin('PATCH', `/api/students/${mine.id}`, { first_name: 'Ζωούλα', version: mine.version }));
    mine = ok(await w.admin('PATCH', `/api/students/${mine.id}`, { inactive_reason: HIDDEN.inactiveReason, version: mine.version }));
    theirs = created(
      await w.admin('POST', '/api/students', { first_name: HIDDEN.otherFirst, last_name: HIDDEN.otherLast, phone: HIDDEN.phone, class_ids: [theirClass!.id] }),
    );
    const category = created(await w.admin('POST', '/api/contract-categories', { name: 'Ετήσιο' }));
    const contract = created(
      await w.admin('POST', '/api/contracts', {
        student_id: mine.id,
        category_id: category.id,
        start_date: HIDDEN.contractStart,
        end_date: '2019-06-30',
        register_cost: 0,
        month_cost: Number(HIDDEN.monthCost),
        with_receipt: false,
      }),
    );
    const payment = created(
      await w.admin('POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: '2019-02',
        amount: Number(HIDDEN.paymentAmount),
        method: 'CASH',
        paid_on: '2019-02-20',
      }),
    );
    const officeNote = created(await w.admin('POST', '/api/notes', { title: 'Γραφείο', body: HIDDEN.officeNote, student_id: mine.id }));
    // Her lessons (with their notifications to her) and another teacher's.
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const otherLesson = await makeLesson(
      w.admin,
      lessonBody(w, nextDate(), { teacher_id: w.teachers[1]!.row.id, class_id: theirClass!.id, room_id: w.rooms[1]!.id }),
    );
    // A note on her class and a record of a custom entity naming the other class's student:
    // she reads both, and the student's label comes without a name.
    let classNote = created(await w.admin('POST', '/api/notes', { title: 'Για το τμήμα', student_id: mine.id, class_id: myClass!.id }));
    classNote = ok(await w.admin('PATCH', `/api/notes/${classNote.id}`, { student_id: theirs.id, version: classNote.version }));
    created(await w.root('POST', '/api/custom-entities', examEntity(SLUG, { subjects: ['Άλγεβρα'], tags: ['γραπτά'] })));
    let record = created(await w.admin('POST', `/api/custom-entities/${SLUG}/records`, { title: 'Διαγώνισμα', student: mine.id }));
    record = ok(await w.admin('PATCH', `/api/custom-entities/${SLUG}/records/${record.id}`, { student: theirs.id, version: record.version }));
    // Her own note on her student: she reads it, with the student's name.
    const ownNote = created(await teacher().call('POST', '/api/notes', { title: 'Πρόοδος', student_id: mine.id, class_id: myClass!.id }));
    Object.assign(ids, {
      students: [mine.id, theirs.id],
      contracts: [contract.id],
      payments: [payment.id],
      notes: [officeNote.id, ownNote.id, classNote.id],
      [`custom:${SLUG}`]: [record.id],
      lessons: [lesson.id, otherLesson.id],
      classes: w.classes.map((c) => c.id),
      teachers: w.teachers.map((x) => x.row.id),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists and reads her student with the first and last name only, and no one else', async () => {
    const expected = { id: mine.id, first_name: 'Ζωούλα', last_name: 'Ορατή' };
    expect(ok(await teacher().call('GET', '/api/students'))).toEqual([expected]);
    expect(ok(await teacher().call('GET', `/api/students/${mine.id}`))).toEqual(expected);
    expectError(await teacher().call('GET', `/api/students/${theirs.id}`), 404, 'not-found');
    // Staff still read everything.
    const full = ok(await w.secretary('GET', `/api/students/${mine.id}`));
    expect(full).toMatchObject({ phone: HIDDEN.phone, guardian_ids: [guardian.id], custom_fields: { allergy: HIDDEN.custom }, number_of_contracts: 1 });
  });

  it('finds her student by name, never by a hidden value; filters and sorts on hidden fields are refused', async () => {
    expect(ok(await teacher().call('GET', `/api/students?q=${encodeURIComponent('ζωουλα')}`)).map((s: Row) => s.id)).toEqual([mine.id]);
    for (const q of [HIDDEN.phone, HIDDEN.email, HIDDEN.guardianName, HIDDEN.information, '2233', 'kryfo']) {
      expect(ok(await teacher().call('GET', `/api/students?q=${encodeURIComponent(q)}`)), q).toEqual([]);
    }
    // Staff find her by the same values.
    expect(ok(await w.secretary('GET', `/api/students?q=${encodeURIComponent(HIDDEN.email)}`)).map((s: Row) => s.id)).toEqual([mine.id]);
    expect(ok(await w.secretary('GET', `/api/guardians?q=${encodeURIComponent(HIDDEN.guardianName)}`)).map((g: Row) => g.id)).toEqual([guardian.id]);
    const names = new Set(['first_name', 'last_name']);
    const def = RESOURCES.students!;
    for (const field of def.fields.filter((f) => !names.has(f.name))) {
      if (field.filterable) expectError(await teacher().call('GET', `/api/students?${field.name}=1`), 400, 'validation', { [field.name]: 'unknown-field' });
      if (field.sortable) expectError(await teacher().call('GET', `/api/students?_sort=${field.name}`), 400, 'validation', { _sort: 'invalid-option' });
    }
    expectError(await teacher().call('GET', '/api/students?custom_fields.allergy=x'), 400, 'validation', { 'custom_fields.allergy': 'unknown-field' });
    expectError(await teacher().call('GET', '/api/students?_sort=created_at'), 400, 'validation', { _sort: 'invalid-option' });
  });

  it('sees the history of her student’s names only', async () => {
    const entries = ok(await teacher().call('GET', `/api/history?entity=students&entity_id=${mine.id}`)) as Row[];
    // The create and the change of the first name; the changes of hidden fields are not hers to see.
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    expect(entries[0]!.changes).toEqual({ first_name: { old: 'Ζωή', new: 'Ζωούλα' } });
    expect(Object.keys(entries[1]!.changes).sort()).toEqual(['first_name', 'last_name']);
    expect(ok(await w.secretary('GET', `/api/history?entity=students&entity_id=${mine.id}`)).length).toBe(4);
  });

  it('receives no hidden value from any GET route the server registers', { timeout: 300_000 }, async () => {
    const templates = getRoutes(t.app);
    // The walk reads the route table: these must be among what it found.
    for (const known of ['/api/students', '/api/students/:id', '/api/history', '/api/lessons/calendar', '/api/notifications/stream', '/api/mydata']) {
      expect(templates).toContain(known);
    }
    const everyId = [...new Set(Object.values(ids).flat())];
    /** The concrete paths of a template: each `:id` takes the ids of its resource's rows (all seeded ids otherwise). */
    const expand = async (template: string): Promise<string[]> => {
      if (!template.includes(':') && !template.includes('*')) return [template];
      const resource = template.startsWith('/api/custom-entities/:slug/') ? `custom:${SLUG}` : /^\/api\/([a-z-]+)\/:id/.exec(template)?.[1];
      let values = everyId;
      if (resource && ids[resource]) values = ids[resource]!;
      else if (resource) {
        const listed = await w.admin('GET', `/api/${resource}?_end=200`);
        if (listed.statusCode === 200 && Array.isArray(json(listed).data)) values = [...new Set([...json(listed).data.map((r: Row) => r.id), ...everyId])];
      }
      const paths = values.map((id) => template.replace(':id', String(id)));
      return paths.map((p) =>
        p
          .replace(':slug', SLUG)
          .replace(/:[a-z_]+/gi, 'x')
          .replace('*', 'x'),
      );
    };
    // Queries every route is asked with: searches for each hidden value, the history of each seeded row, a student's rows.
    const queries = [
      '',
      ...hidden.map((value) => `q=${encodeURIComponent(value)}`),
      ...Object.entries(ids).flatMap(([entity, list]) => list.map((id) => `entity=${entity}&entity_id=${id}`)),
      `student_id=${mine.id}`,
      `student_id=${theirs.id}`,
      'from=2027-03-01&to=2027-03-20',
      'start=2027-03-01&end=2027-03-31',
      '_end=200',
    ];
    const failures: string[] = [];
    let walked = 0;
    const answered = new Set<string>();
    for (const template of templates) {
      const plain = !template.includes(':') && !template.includes('*');
      for (const path of await expand(template)) {
        // A row's own routes once each; the routes without ids with every query.
        for (const query of plain ? queries : ['']) {
          const answer = await get(query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path);
          walked++;
          if (answer.status === 200) answered.add(template);
          for (const value of leaks(answer)) failures.push(`${answer.url} (${answer.status}) holds ${value}`);
        }
      }
    }
    // A search for a hidden value finds nothing that a search for nothing at all does not.
    for (const template of templates.filter((p) => !p.includes(':') && !p.includes('*'))) {
      const none = await get(`${template}?q=zzqqxxnothing`);
      for (const value of [HIDDEN.phone, HIDDEN.email, HIDDEN.guardianName, HIDDEN.information, HIDDEN.otherFirst]) {
        const found = await get(`${template}?q=${encodeURIComponent(value)}`);
        if (found.status !== none.status || (found.status === 200 && ids_in(found.body) !== ids_in(none.body))) {
          failures.push(`${template}?q=${value} answers other rows than a search for nothing`);
        }
      }
    }
    expect(walked).toBeGreaterThan(300);
    // Signed in and answered: the walk reached the data of these routes (and of many more).
    for (const known of ['/api/students', '/api/students/:id', '/api/history', '/api/lessons/calendar', '/api/notifications', '/api/notifications/stream']) {
      expect(answered).toContain(known);
    }
    expect(answered.size).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('reads a note and a record naming a student of another class, with no name in its label or history', async () => {
    const note = (ok(await teacher().call('GET', '/api/notes?_end=200')) as Row[]).find((n) => n.title === 'Για το τμήμα');
    expect(note?.student).toEqual({ id: theirs.id, name: null });
    const [record] = ok(await teacher().call('GET', `/api/custom-entities/${SLUG}/records`)) as Row[];
    expect(record?.student_label).toEqual({ id: theirs.id, name: null });
    const changes = (ok(await teacher().call('GET', `/api/history?entity=notes&entity_id=${note!.id}`)) as Row[]).find((e) => e.action === 'update')!.changes;
    expect(changes.student_id.labels).toEqual({ old: { id: mine.id, name: 'Ζωούλα Ορατή' }, new: { id: theirs.id, name: null } });
    // Staff read the name.
    expect((ok(await w.secretary('GET', `/api/notes/${note!.id}`)) as Row).student).toEqual({
      id: theirs.id,
      name: `${HIDDEN.otherFirst} ${HIDDEN.otherLast}`,
    });
  });

  it('receives no hidden key of a student from the routes of any narrowed declaration', async () => {
    for (const def of Object.values(RESOURCES).filter((d) => d.narrowFor?.TEACHER)) {
      const allowed = new Set(['id', ...def.narrowFor!.TEACHER!]);
      for (const row of ok(await teacher().call('GET', `/api/${def.name}?_end=200`)) as Row[]) {
        expect(
          Object.keys(row).filter((k) => !allowed.has(k)),
          def.name,
        ).toEqual([]);
        expect(
          Object.keys(ok(await teacher().call('GET', `/api/${def.name}/${row.id}`))).filter((k) => !allowed.has(k)),
          def.name,
        ).toEqual([]);
      }
    }
  });
});

/** The ids of the rows an answer holds (its `data` list, or the whole answer), for comparing two searches. */
function ids_in(body: string): string {
  try {
    const parsed = JSON.parse(body) as { data?: unknown };
    const rows = Array.isArray(parsed.data) ? parsed.data : Array.isArray(parsed) ? parsed : [];
    return JSON.stringify(rows.map((r: { id?: unknown }) => r?.id ?? r));
  } catch {
    return body;
  }
}
