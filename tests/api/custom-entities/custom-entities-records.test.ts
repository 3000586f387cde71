// Records of a custom entity: every field type valid and invalid (400 with a code per field,
// nothing stored), flat rows with reference labels, list paging, sorting, filters by key,
// accent-blind search, optimistic locking, history, import, and the tab of a referenced
// student (records filtered by the reference). References sort by the referenced record's
// name, a CSV export imports back (references by name), and the history names references.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCsv, parseCsv } from '../../../src/engine/list/csv';
import type { Translate } from '../../../src/providers/i18nProvider';
import { resourceCsvColumns } from '../../../src/engine/list/export-csv';
import { parseRuntimeDeclarations } from '../../../src/engine/runtime/runtime-parse';
import { guessTarget, importTargets, rowBody } from '../../../src/engine/import/csv-rows';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { notId, notNumber, notString } from '../support/bad-values';
import { entityField, examEntity } from '../../../bench/exam-entity';
import '../support/fast-check-seed';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Row = Record<string, any>;
const TENANT = 'crecords';

describe.each(DATABASE_KINDS)('custom entity records on %s', (kind) => {
  let t: TestApp;
  let root: string;
  const students: number[] = [];
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: root, tenant: TENANT });
  const add = async (body: Row, slug = 'exams') => {
    const res = await call('POST', `/api/custom-entities/${slug}/records`, body);
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };
  const list = async (query: string) => {
    const res = await call('GET', `/api/custom-entities/exams/records?${query}`);
    expectStatus(res, 200);
    return { rows: json(res).data as Row[], total: json(res).total as number, header: res.headers['x-total-count'] };
  };
  const titles = async (query: string) => (await list(query)).rows.map((r) => r.title);

  beforeAll(async () => {
    t = await startApp(kind);
    await t.createTenant(TENANT);
    root = (await t.signIn(t.root.username, t.root.password, TENANT)).token;
    for (const [first, last] of [
      ['Άννα', 'Παπαδοπούλου'],
      ['Νίκος', 'Γεωργίου'],
    ]) {
      const res = await call('POST', '/api/students', { first_name: first, last_name: last });
      expectStatus(res, 201);
      students.push(json(res).id);
    }
    const res = await call(
      'POST',
      '/api/custom-entities',
      examEntity('exams', { subjects: ['Μαθηματικά', 'Φυσική', 'Χημεία'], tags: ['προφορικά', 'γραπτά'] }),
    );
    expectStatus(res, 201);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('every field type stores its value, and a row is flat with the reference label beside it', async () => {
    const made = await add({
      title: 'Πρόοδος άλγεβρας',
      grade: 18.5,
      held_on: '2026-11-20',
      subject: 'Μαθηματικά',
      tags: ['γραπτά', 'προφορικά'],
      passed: true,
      student: students[0],
    });
    expect(made).toMatchObject({
      title: 'Πρόοδος άλγεβρας',
      grade: 18.5,
      held_on: '2026-11-20',
      subject: 'Μαθηματικά',
      tags: ['προφορικά', 'γραπτά'],
      passed: true,
      student: students[0],
      student_label: { id: students[0], name: expect.stringContaining('Παπαδοπούλου') },
      version: 1,
    });
    const read = json(await call('GET', `/api/custom-entities/exams/records/${made.id}`)).data;
    expect(read).toEqual(made);
    const minimal = await add({ title: 'Μόνο τίτλος', grade: null, held_on: '', student: null });
    expect(minimal).toMatchObject({ grade: null, held_on: null, student: null, student_label: null, tags: null });
  });

  it.each([
    [{ grade: 'ten' }, 'grade', 'invalid-type'],
    [{ held_on: '2026-02-30' }, 'held_on', 'invalid-format'],
    [{ held_on: 20260101 }, 'held_on', 'invalid-type'],
    [{ subject: 'Ιστορία' }, 'subject', 'invalid-option'],
    [{ tags: ['άλλο'] }, 'tags.0', 'invalid-option'],
    [{ tags: 'γραπτά' }, 'tags', 'invalid-type'],
    [{ passed: 'yes' }, 'passed', 'invalid-type'],
    [{ student: 'Άννα' }, 'student', 'invalid-type'],
    [{ student: 999999 }, 'student', 'invalid'],
    [{ nope: 1 }, 'nope', 'unknown-field'],
    [{ title: '' }, 'title', 'required'],
    [{ title: 'x'.repeat(501) }, 'title', 'too-long'],
  ])('%j is refused on %s', async (bad, name, code) => {
    const before = (await list('')).total;
    const res = await call('POST', '/api/custom-entities/exams/records', { title: 'Καλό', ...bad });
    expectError(res, 400, 'validation', { [name]: code });
    expect((await list('')).total).toBe(before);
  });

  it('a required field is required on create; unknown entity is 404', async () => {
    expectError(await call('POST', '/api/custom-entities/exams/records', { grade: 1 }), 400, 'validation', { title: 'required' });
    expectError(await call('GET', '/api/custom-entities/nosuch/records'), 404, 'not-found');
    expectError(await call('POST', '/api/custom-entities/nosuch/records', { title: 'x' }), 404, 'not-found');
  });

  it('lists page, sort by any field, filter by key, search without accents', async () => {
    await add({ title: 'Φυσική κίνηση', grade: 12, held_on: '2026-10-01', subject: 'Φυσική', passed: false, student: students[1], tags: ['γραπτά'] });
    await add({ title: 'Χημεία οξέα', grade: 9, held_on: '2026-09-15', subject: 'Χημεία', passed: false, student: students[0] });
    await add({ title: 'Άλγεβρα ΙΙ', grade: 20, held_on: '2026-12-01', subject: 'Μαθηματικά', passed: true, student: students[1], tags: ['προφορικά'] });

    expect(await titles('_sort=grade&_order=asc&grade_gte=0')).toEqual(['Χημεία οξέα', 'Φυσική κίνηση', 'Πρόοδος άλγεβρας', 'Άλγεβρα ΙΙ']);
    expect(await titles('_sort=grade&_order=desc&grade_gte=0')).toEqual(['Άλγεβρα ΙΙ', 'Πρόοδος άλγεβρας', 'Φυσική κίνηση', 'Χημεία οξέα']);
    // Text sorts by its folded form: Άλγεβρα beside άλγεβρα, before Μ…
    expect(await titles('_sort=title')).toEqual(['Άλγεβρα ΙΙ', 'Μόνο τίτλος', 'Πρόοδος άλγεβρας', 'Φυσική κίνηση', 'Χημεία οξέα']);
    expect(await titles('_sort=held_on&held_on_gte=2026-10-01&held_on_lte=2026-11-30')).toEqual(['Φυσική κίνηση', 'Πρόοδος άλγεβρας']);
    expect(await titles('_sort=title&subject=Μαθηματικά')).toEqual(['Άλγεβρα ΙΙ', 'Πρόοδος άλγεβρας']);
    expect(await titles('_sort=title&subject_ne=Μαθηματικά')).toEqual(['Μόνο τίτλος', 'Φυσική κίνηση', 'Χημεία οξέα']);
    expect(await titles('_sort=title&passed=false')).toEqual(['Φυσική κίνηση', 'Χημεία οξέα']);
    expect(await titles('_sort=title&tags=προφορικά')).toEqual(['Άλγεβρα ΙΙ', 'Πρόοδος άλγεβρας']);
    // The student's tab: records pointing at her.
    expect(await titles(`_sort=title&student=${students[0]}`)).toEqual(['Πρόοδος άλγεβρας', 'Χημεία οξέα']);
    // Accent- and case-blind search over searchable fields.
    expect(await titles('_sort=title&q=ΑΛΓΕΒΡΑ')).toEqual(['Άλγεβρα ΙΙ', 'Πρόοδος άλγεβρας']);
    expect(await titles('_sort=title&title_like=κινηση')).toEqual(['Φυσική κίνηση']);
    // Paging with the total in the header and the body.
    const page = await list('_sort=title&_start=1&_end=3');
    expect(page.rows.map((r) => r.title)).toEqual(['Μόνο τίτλος', 'Πρόοδος άλγεβρας']);
    expect([page.total, page.header]).toEqual([5, '5']);
    const none = await list('q=τίποτατέτοιο');
    expect([none.rows, none.total]).toEqual([[], 0]);
    // System fields sort and filter too.
    const byId = (await list('_sort=id&_order=desc')).rows.map((r) => r.id);
    expect(byId).toEqual([...byId].sort((a, b) => b - a));
  });

  it('a student that records point at is kept (409 in-use naming the records)', async () => {
    const body = expectError(await call('DELETE', `/api/students/${students[0]}`), 409, 'in-use');
    expect(body.error.details.uses['custom-entities/exams/records']).toBeGreaterThan(0);
    expectStatus(await call('GET', `/api/students/${students[0]}`), 200);
  });

  it.each([
    ['_sort=tags', '_sort'],
    ['_sort=nope', '_sort'],
    ['nope=1', 'nope'],
    ['grade_gte=abc', 'grade_gte'],
    ['held_on=2026-13-01', 'held_on'],
    ['subject=Ιστορία', 'subject'],
    ['passed=maybe', 'passed'],
    ['student=abc', 'student'],
    ['passed_gte=true', 'passed_gte'],
    ['_end=1000', '_end'],
  ])('a bad list query %s is 400 on %s', async (query, name) => {
    const body = expectError(await call('GET', `/api/custom-entities/exams/records?${query}`), 400, 'validation');
    expect(Object.keys(body.error.fields)).toContain(name);
  });

  it('an update changes only what it sends, checks the version, and is in the history', async () => {
    const made = await add({ title: 'Τεστ', grade: 10, subject: 'Χημεία' });
    const res = await call('PATCH', `/api/custom-entities/exams/records/${made.id}`, { version: made.version, grade: 11, subject: null });
    expectStatus(res, 200);
    expect(json(res).data).toMatchObject({ title: 'Τεστ', grade: 11, subject: null, version: 2 });
    expectError(await call('PATCH', `/api/custom-entities/exams/records/${made.id}`, { version: 1, grade: 12 }), 409, 'stale');
    expectError(await call('PATCH', `/api/custom-entities/exams/records/${made.id}`, { grade: 12 }), 400, 'validation', { version: 'required' });
    expectError(await call('PATCH', `/api/custom-entities/exams/records/${made.id}`, { version: 2, title: null }), 400, 'validation');
    const history = json(await call('GET', `/api/history?entity=custom:exams&entity_id=${made.id}`)).data;
    expect(history.map((h: Row) => h.action)).toEqual(['update', 'create']);
    expect(history[0].changes).toEqual({ grade: { old: 10, new: 11 }, subject: { old: 'Χημεία', new: null } });
    expectStatus(await call('DELETE', `/api/custom-entities/exams/records/${made.id}`), 204);
    expectError(await call('GET', `/api/custom-entities/exams/records/${made.id}`), 404, 'not-found');
    expect(json(await call('GET', `/api/history?entity=custom:exams&entity_id=${made.id}`)).data[0].action).toBe('delete');
  });

  it('import takes all rows or none, and reports the bad ones by row', async () => {
    const before = (await list('')).total;
    let res = await call('POST', '/api/custom-entities/exams/records/import', { rows: [{ title: 'Ι1', grade: 5 }, { title: 'Ι2', grade: 'x' }, { grade: 1 }] });
    const body = expectError(res, 400, 'validation');
    expect(body.error.details.errors).toEqual([
      { row: 1, fields: { grade: 'invalid-type' } },
      { row: 2, fields: { title: 'required' } },
    ]);
    expect((await list('')).total).toBe(before);
    res = await call('POST', '/api/custom-entities/exams/records/import', {
      rows: [
        { title: 'Ι1', grade: 5, student: students[1] },
        { title: 'Ι2', grade: 'x' },
      ],
      skip_invalid: true,
    });
    expectStatus(res, 200);
    expect(json(res)).toMatchObject({ created: 1, skipped: 1 });
    expect(await titles(`student=${students[1]}&grade_lte=5`)).toEqual(['Ι1']);
  });

  it('generated bad records are 400 with field codes and change nothing', async () => {
    const before = await list('_sort=id&_end=200');
    const bad = fc.oneof(
      notString.map((v) => ['title', v] as const),
      notNumber.map((v) => ['grade', v] as const),
      notString.map((v) => ['held_on', v] as const),
      notString.map((v) => ['subject', v] as const),
      fc.oneof(fc.integer(), fc.string({ minLength: 1 }), fc.constant(null)).map((v) => ['passed', v === null ? 'null' : v] as const),
      notId.map((v) => ['student', v] as const),
    );
    await fc.assert(
      fc.asyncProperty(bad, async ([name, value]) => {
        const res = await call('POST', '/api/custom-entities/exams/records', { title: 'Γεννημένο', [name]: value });
        expect(res.statusCode, show(res)).toBe(400);
        const fields = json(res).error.fields as Record<string, string>;
        expect(
          Object.keys(fields).some((k) => k === name || k.startsWith(`${name}.`)),
          show(res),
        ).toBe(true);
      }),
      { numRuns: 40 },
    );
    const target = before.rows[0]!;
    await fc.assert(
      fc.asyncProperty(notNumber, async (value) => {
        const res = await call('PATCH', `/api/custom-entities/exams/records/${target.id}`, { version: target.version, grade: value });
        expect(res.statusCode, show(res)).toBe(400);
      }),
      { numRuns: 20 },
    );
    expect(await list('_sort=id&_end=200')).toEqual(before);
  });
  describe('references by name', () => {
    // Visits point at a student and at an exam; the students' names carry accents and capitals.
    const people: Record<string, number> = {};
    const exams: Record<string, number> = {};
    const visits = (query: string) => call('GET', `/api/custom-entities/visits/records?${query}`);
    const notes = async (query: string) => {
      const res = await visits(query);
      expectStatus(res, 200);
      return (json(res).data as Row[]).map((r) => r.note);
    };
    const student = async (first_name: string, last_name: string) => {
      const res = await call('POST', '/api/students', { first_name, last_name });
      expectStatus(res, 201);
      return json(res).id as number;
    };

    beforeAll(async () => {
      for (const [first, last] of [
        ['Ζωή', 'αβραμίδου'],
        ['Ίων', 'Έξαρχος'],
        ['Άρης', 'Έξαρχος'],
        ['Ελένη', 'Ωραιοπούλου'],
      ])
        people[`${first} ${last}`] = await student(first!, last!);
      people['Άννα Παπαδοπούλου'] = students[0]!;
      people['Νίκος Γεωργίου'] = students[1]!;
      for (const title of ['Ωμέγα τεστ', 'άλφα τεστ', 'Βήτα τεστ']) exams[title] = (await add({ title })).id;
      const res = await call('POST', '/api/custom-entities', {
        slug: 'visits',
        name_el: 'Επίσκεψη',
        name_en: 'Visit',
        name_plural_el: 'Επισκέψεις',
        name_plural_en: 'Visits',
        fields: [
          entityField('note', 'TEXT', { required: true }),
          entityField('student', 'REFERENCE', { target: 'students' }),
          entityField('exam', 'REFERENCE', { target: 'custom:exams' }),
        ],
      });
      expectStatus(res, 201);
      // Made out of order, Ίων twice: the id breaks the tie.
      for (const [note, who, exam] of [
        ['v-ion-1', 'Ίων Έξαρχος', 'Βήτα τεστ'],
        ['v-anna', 'Άννα Παπαδοπούλου', 'Ωμέγα τεστ'],
        ['v-none', null, null],
        ['v-zoi', 'Ζωή αβραμίδου', 'άλφα τεστ'],
        ['v-eleni', 'Ελένη Ωραιοπούλου', 'Ωμέγα τεστ'],
        ['v-ion-2', 'Ίων Έξαρχος', null],
        ['v-aris', 'Άρης Έξαρχος', 'άλφα τεστ'],
        ['v-nikos', 'Νίκος Γεωργίου', 'Βήτα τεστ'],
      ] as const)
        await add({ note, student: who ? people[who] : null, exam: exam ? exams[exam] : null }, 'visits');
    });

    it('a reference sorts by the referenced name (last, then first name for people), accent- and case-blind, the id breaking ties, both ways and page by page', async () => {
      const byName = ['v-zoi', 'v-nikos', 'v-aris', 'v-ion-1', 'v-ion-2', 'v-anna', 'v-eleni', 'v-none'];
      expect(await notes('_sort=student&_order=asc')).toEqual(byName);
      expect(await notes('_sort=student&_order=desc')).toEqual([...byName].reverse());
      for (const order of ['asc', 'desc'] as const) {
        const pages: string[] = [];
        for (let start = 0; start < byName.length; start += 3) pages.push(...(await notes(`_sort=student&_order=${order}&_start=${start}&_end=${start + 3}`)));
        expect(pages).toEqual(order === 'asc' ? byName : [...byName].reverse());
      }
      // Filtered and counted as before.
      const res = await visits(`_sort=student&_order=asc&_start=0&_end=2&student=${people['Ίων Έξαρχος']}&student=${people['Άρης Έξαρχος']}`);
      expect([(json(res).data as Row[]).map((r) => r.note), json(res).total]).toEqual([['v-aris', 'v-ion-1'], 3]);
      // Another entity's records sort by their title (αλφα, βητα, ωμεγα), then the empty ones.
      expect(await notes('_sort=exam,id&_order=asc,asc')).toEqual(['v-zoi', 'v-aris', 'v-ion-1', 'v-nikos', 'v-anna', 'v-eleni', 'v-none', 'v-ion-2']);
    });

    it("a page holds each record as it reads alone, its labels as named now (another entity's title renamed shows at once)", async () => {
      const page = async () => {
        const res = await visits('_sort=note&_order=asc&_start=0&_end=50');
        expectStatus(res, 200);
        return json(res).data as Row[];
      };
      const rows = await page();
      expect(rows.map((r) => r.note)).toEqual(['v-anna', 'v-aris', 'v-eleni', 'v-ion-1', 'v-ion-2', 'v-nikos', 'v-none', 'v-zoi']);
      for (const row of rows) expect(row).toEqual(json(await call('GET', `/api/custom-entities/visits/records/${row.id}`)).data);
      expect(rows.find((r) => r.note === 'v-none')).toMatchObject({ student: null, student_label: null, exam: null, exam_label: null });
      expect(rows.find((r) => r.note === 'v-zoi')).toMatchObject({
        student_label: { id: people['Ζωή αβραμίδου'], name: 'Ζωή αβραμίδου' },
        exam_label: { id: exams['άλφα τεστ'], name: 'άλφα τεστ' },
      });
      // The same page again (its statement kept) names a renamed exam by its new title.
      const beta = json(await call('GET', `/api/custom-entities/exams/records/${exams['Βήτα τεστ']}`)).data;
      const rename = (title: string, version: number) => call('PATCH', `/api/custom-entities/exams/records/${beta.id}`, { version, title });
      const renamed = await rename('Βήτα τεστ (β)', beta.version);
      expectStatus(renamed, 200);
      try {
        const nikos = (await page()).find((r) => r.note === 'v-nikos');
        expect(nikos?.exam_label).toEqual({ id: beta.id, name: 'Βήτα τεστ (β)' });
      } finally {
        expectStatus(await rename('Βήτα τεστ', json(renamed).data.version), 200);
      }
    });

    it('an exported CSV imports back: references written as names point at the same records', async () => {
      const visitsDef = parseRuntimeDeclarations(json(await call('GET', '/api/resources/runtime'))).find((d) => d.name.endsWith('/visits/records'));
      expect(visitsDef).toBeDefined();
      const tr: Translate = (key, options) => (typeof options?.defaultValue === 'string' ? options.defaultValue : key);
      const before = json(await visits('_sort=id&_end=200')).data as Row[];
      const columns = resourceCsvColumns(tr, visitsDef!);
      const csv = buildCsv(
        columns.map((c) => c.header),
        before.map((row) => columns.map((c) => c.text(row))),
      );
      expect(csv).toContain('Ζωή αβραμίδου');
      const [header, ...cells] = parseCsv(csv);
      const targets = importTargets(tr, visitsDef!);
      const mapping = header!.map((h) => guessTarget(h, targets, (x) => [x.field.name, x.label]));
      expect(mapping).toEqual([null, 'note', 'student', 'exam']);
      const rows = cells.map((line) => rowBody(line, mapping, new Map(targets.map((x) => [x.key, x]))));
      const res = await call('POST', '/api/custom-entities/visits/records/import', { rows });
      expectStatus(res, 200);
      expect(json(res)).toMatchObject({ created: before.length, skipped: 0, errors: [] });
      const last = Math.max(...before.map((r) => r.id));
      const after = (json(await visits('_sort=id&_end=200')).data as Row[]).filter((r) => r.id > last).map((r) => [r.note, r.student, r.exam]);
      expect(after).toEqual(before.map((r) => [r.note, r.student, r.exam]));
    });

    it('a name that fits no record or several is the row error, and the row is not stored', async () => {
      await student('Μάρκος', 'Δήμου');
      await student('ΜΑΡΚΟΣ', 'δήμου');
      // A title made of digits, which the CSV reader sends as a number: no exam has it as its id.
      const digits = (await add({ title: '990001' })).id;
      const rows = [
        { note: 'i-digits', exam: 990001 },
        { note: 'i-ok', student: '  ζωη   ΑΒΡΑΜΙΔΟΥ ', exam: 'ΑΛΦΑ ΤΕΣΤ' },
        { note: 'i-twice', student: 'Μάρκος Δήμου' },
        { note: 'i-nobody', student: 'Κανείς Τέτοιος', exam: 'Γάμμα τεστ' },
        { note: 'i-number', student: `#${people['Νίκος Γεωργίου']}`, exam: exams['Βήτα τεστ'] },
        { student: 'Ζωή αβραμίδου' },
      ];
      const total = json(await visits('')).total;
      const body = expectError(await call('POST', '/api/custom-entities/visits/records/import', { rows }), 400, 'validation');
      expect(body.error.details.errors).toEqual([
        { row: 2, fields: { student: 'ambiguous' } },
        { row: 3, fields: { student: 'no-match', exam: 'no-match' } },
        { row: 5, fields: { note: 'required' } },
      ]);
      expect(json(await visits('')).total).toBe(total);
      const res = await call('POST', '/api/custom-entities/visits/records/import', { rows, skip_invalid: true });
      expectStatus(res, 200);
      expect(json(res)).toMatchObject({ created: 3, skipped: 3 });
      const made = (json(await visits('_sort=id&_end=200&note_like=i-')).data as Row[]).map((r) => [r.note, r.student, r.exam]);
      expect(made).toEqual([
        ['i-digits', null, digits],
        ['i-ok', people['Ζωή αβραμίδου'], exams['άλφα τεστ']],
        ['i-number', people['Νίκος Γεωργίου'], exams['Βήτα τεστ']],
      ]);
      // An id no record has is refused as before.
      const unknown = expectError(await call('POST', '/api/custom-entities/visits/records/import', { rows: [{ note: 'x', exam: 990002 }] }), 400, 'validation');
      expect(unknown.error.details.errors).toEqual([{ row: 0, fields: { exam: 'invalid' } }]);
      // One record is created only with an id.
      expectError(await call('POST', '/api/custom-entities/visits/records', { note: 'x', student: 'Ζωή αβραμίδου' }), 400, 'validation', {
        student: 'invalid-type',
      });
    });

    it('the history names the records a reference change points at', async () => {
      const [made] = json(await visits('note=v-zoi&_sort=id&_order=asc')).data as Row[];
      const res = await call('PATCH', `/api/custom-entities/visits/records/${made!.id}`, {
        version: made!.version,
        student: people['Άρης Έξαρχος'],
        exam: null,
      });
      expectStatus(res, 200);
      const history = json(await call('GET', `/api/history?entity=custom:visits&entity_id=${made!.id}`)).data as Row[];
      expect(history.map((h) => h.action)).toEqual(['update', 'create']);
      expect(history[0]!.changes).toEqual({
        student: {
          old: people['Ζωή αβραμίδου'],
          new: people['Άρης Έξαρχος'],
          labels: { old: { id: people['Ζωή αβραμίδου'], name: 'Ζωή αβραμίδου' }, new: { id: people['Άρης Έξαρχος'], name: 'Άρης Έξαρχος' } },
        },
        exam: { old: exams['άλφα τεστ'], new: null, labels: { old: { id: exams['άλφα τεστ'], name: 'άλφα τεστ' }, new: null } },
      });
      expect(history[1]!.changes.note).toEqual({ old: null, new: 'v-zoi' });
      expect(history[1]!.changes.student.labels.new).toEqual({ id: people['Ζωή αβραμίδου'], name: 'Ζωή αβραμίδου' });
    });
  });

  it('a filtered, sorted page of many records has the right rows and total, with any filter first', async () => {
    const subjects = ['Μαθηματικά', 'Φυσική', 'Χημεία'];
    const res = await call('POST', '/api/custom-entities', {
      slug: 'quizzes',
      name_el: 'Τεστ',
      name_en: 'Quiz',
      name_plural_el: 'Τεστ',
      name_plural_en: 'Quizzes',
      fields: [
        entityField('title', 'TEXT', { required: true }),
        entityField('grade', 'NUMBER'),
        entityField('subject', 'SINGLE_CHOICE', { options: subjects }),
        entityField('tags', 'MULTIPLE_CHOICE', { options: ['προφορικά', 'γραπτά'] }),
        entityField('passed', 'BOOLEAN'),
      ],
    });
    expectStatus(res, 201);
    const rows = Array.from({ length: 60 }, (_, k) => ({
      title: `Τεστ ${String((k * 37) % 60).padStart(2, '0')}`,
      grade: k % 7 === 0 ? null : (k * 11) % 20,
      subject: subjects[k % 3],
      tags: k % 4 === 0 ? ['προφορικά', 'γραπτά'] : k % 4 === 1 ? ['γραπτά'] : [],
      passed: k % 5 !== 0,
    }));
    expectStatus(await call('POST', '/api/custom-entities/quizzes/records/import', { rows }), 200);
    const page = async (query: string) => {
      const r = await call('GET', `/api/custom-entities/quizzes/records?${query}`);
      expectStatus(r, 200);
      return { titles: (json(r).data as Row[]).map((x) => x.title as string), total: json(r).total as number, header: r.headers['x-total-count'] };
    };
    const byTitle = (keep: (r: (typeof rows)[number]) => boolean) =>
      rows
        .filter(keep)
        .map((r) => r.title)
        .sort();
    const cases: [string, string[]][] = [
      ['subject=Φυσική', byTitle((r) => r.subject === 'Φυσική')],
      ['subject=Φυσική&subject=Χημεία&passed=true', byTitle((r) => r.subject !== 'Μαθηματικά' && r.passed)],
      ['grade_gte=5&grade_lte=15&subject_ne=Χημεία', byTitle((r) => r.grade !== null && r.grade >= 5 && r.grade <= 15 && r.subject !== 'Χημεία')],
      ['tags=γραπτά&tags=προφορικά', byTitle((r) => r.tags.length > 0)],
      ['subject_ne=Φυσική&tags=γραπτά', byTitle((r) => r.subject !== 'Φυσική' && r.tags.includes('γραπτά'))],
      ['title_like=τεστ 1', byTitle((r) => r.title.startsWith('Τεστ 1'))],
    ];
    for (const [filter, expected] of cases) {
      expect(expected.length, filter).toBeGreaterThan(5);
      // A full first page, a later one, and one past the end: the total holds on each.
      for (const [start, end] of [
        [0, 5],
        [3, 8],
        [100, 105],
      ] as const) {
        const got = await page(`_sort=title&_start=${start}&_end=${end}&${filter}`);
        expect([got.titles, got.total, got.header], filter).toEqual([expected.slice(start, end), expected.length, String(expected.length)]);
      }
      // Sorted by something else than a field, the same records are counted.
      const byId = await page(`_sort=id&_order=desc&_start=0&_end=3&${filter}`);
      expect([byId.titles.length, byId.total], filter).toEqual([3, expected.length]);
      const desc = await page(`_sort=title&_order=desc&_start=0&_end=4&${filter}`);
      expect(desc.titles, filter).toEqual([...expected].reverse().slice(0, 4));
    }
  });
});
