// Generated bad inputs against the lessons routes: wrong values in every field of POST/PATCH /api/lessons and
// /api/recurring-lessons, any JSON body, junk list filters and calendar queries. Each answer is a
// 4xx with {error: {code, message}} (400 validation naming the field where there is one), and the
// data never changes. The fixed fast-check seed comes from tests/api/support/fast-check-seed.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectClientError, expectError, json, show } from '../support/api-helpers';
import { nonBlank, notId, notNumber, notString } from '../support/bad-values';
import type { FieldDef } from '../../../domain/fields';
import { LESSONS, RECURRING_LESSONS } from '../../../domain/resources/lessons';
import { lessonBody, makeLesson, makeWorld, seriesCreate, type Row, type World } from '../support/lessons-helpers';

const RUNS = 8;
const writable = (fields: readonly FieldDef[]) => fields.filter((f) => !f.readOnly);

const badDate = fc.oneof(
  notString,
  fc.constantFrom('2027-02-30', '2027-13-01', '27-01-01', '2027/01/05', '2027-1-5', 'αύριο', "'; DROP TABLE lessons; --", '2027-01-05T10:00:00Z', '0000-00-00'),
);
const badTime = fc.oneof(notString, fc.constantFrom('24:00', '7:00', '17:60', '17', '17:00:00', '5pm', '-1:00', 'Ω'.repeat(300), '25:61'));

/** Values that no field of this type accepts (blank optional values mean null, so they are left out). */
function wrongFor(def: FieldDef): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'DATE':
      return badDate;
    case 'TIME':
      return badTime;
    case 'NUMBER':
      return fc.oneof(
        notNumber,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
        fc.integer({ min: (def.max ?? 1000) + 1 }),
        fc.integer({ max: (def.min ?? 1) - 1 }),
      );
    case 'BOOLEAN':
      return fc.oneof(nonBlank, fc.integer(), fc.array(fc.boolean(), { maxLength: 2 }));
    case 'REFERENCE':
      return notId;
    case 'REFERENCES':
      return fc.oneof(nonBlank, fc.integer(), fc.array(notId, { minLength: 1, maxLength: 3 }));
    case 'ENUM':
      return fc.oneof(
        notString,
        fc.string({ maxLength: 12 }).filter((s) => !def.options!.includes(s) && (def.required || s.trim() !== '')),
      );
    case 'WEEKDAYS':
      return fc.oneof(
        nonBlank,
        fc.integer(),
        fc.array(fc.oneof(fc.integer({ min: 8 }), fc.integer({ max: 0 }), nonBlank), { minLength: 1, maxLength: 3 }),
        fc.constant([1, 1]),
      );
    case 'DATES':
      return fc.oneof(nonBlank, fc.integer(), fc.array(badDate, { minLength: 1, maxLength: 3 }), fc.constant(['2027-01-05', '2027-01-05']));
    case 'LONG_TEXT':
    case 'TEXT':
      return fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.constant('λ'.repeat(5001)));
    default:
      return notString;
  }
}

const names = (body: Row, field: string) => Object.keys(body.error?.fields ?? {}).some((k) => k === field || k.startsWith(`${field}.`));

describe.each(DATABASE_KINDS)('lessons bad inputs on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let lesson: Row;
  let series: Row;

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => w.admin(method, url, body);
  const sendRaw = (method: 'POST' | 'PATCH', url: string, payload: string) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: {
        host: 'demo.localhost',
        'x-client-type': 'api',
        'x-tenant-id': 'demo',
        authorization: `Bearer ${w.adminToken}`,
        'content-type': 'application/json',
      },
    });

  async function snapshot() {
    return {
      lessons: json(await send('GET', '/api/lessons?_start=0&_end=200&_sort=id&_order=asc')),
      series: json(await send('GET', '/api/recurring-lessons?_start=0&_end=200&_sort=id&_order=asc')),
    };
  }
  let before: Awaited<ReturnType<typeof snapshot>>;

  function expectNamed(res: Response, field: string) {
    const body = expectClientError(res);
    expect(res.statusCode, show(res)).toBe(400);
    expect(body.error.code, show(res)).toBe('validation');
    expect(names(body, field), `fields should name ${field}: ${show(res)}`).toBe(true);
  }

  // A valid lesson on a day nobody else uses: any refusal below is the bad value's doing.
  const baseLesson = () => lessonBody(w, '2027-08-02', { start_time: '08:00', end_time: '09:00', tag_ids: [w.tag.id] });
  const baseSeries = () => ({
    start_time: '08:00',
    end_time: '09:00',
    teacher_id: w.teachers[0]!.row.id,
    repeat: 'WEEKLY',
    weekdays: [2],
    start_date: '2027-08-03',
    end_type: 'AFTER',
    occurrences: 2,
  });

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, rooms: 1, classes: 1, subjects: 1 });
    lesson = await makeLesson(w.admin, lessonBody(w, '2027-08-01'));
    series = (await seriesCreate(w.admin, { ...baseSeries(), start_date: '2027-09-01', weekdays: [3] })).data;
    before = await snapshot();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('POST and PATCH /api/lessons: a wrong value in any field is 400 naming that field', async () => {
    const fields = writable(LESSONS.fields);
    const field = fc.constantFrom(...fields).chain((def) => fc.tuple(fc.constant(def), wrongFor(def)));
    await fc.assert(
      fc.asyncProperty(field, async ([def, value]) => {
        expectNamed(await send('POST', '/api/lessons', { ...baseLesson(), [def.name]: value }), def.name);
        if (!def.createOnly) expectNamed(await send('PATCH', `/api/lessons/${lesson.id}`, { [def.name]: value, version: lesson.version }), def.name);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('POST /api/lessons: required fields missing or blank are 400 required', async () => {
    for (const name of ['date', 'start_time', 'end_time']) {
      const body = baseLesson();
      delete body[name];
      expectError(await send('POST', '/api/lessons', body), 400, 'validation', { [name]: 'required' });
    }
  });

  it('POST and PATCH /api/recurring-lessons: a wrong value in any field is 400 naming that field', async () => {
    const fields = writable(RECURRING_LESSONS.fields);
    const field = fc.constantFrom(...fields).chain((def) => fc.tuple(fc.constant(def), wrongFor(def)));
    await fc.assert(
      fc.asyncProperty(field, async ([def, value]) => {
        expectNamed(await send('POST', '/api/recurring-lessons', { ...baseSeries(), [def.name]: value }), def.name);
        expectNamed(await send('PATCH', `/api/recurring-lessons/${series.id}`, { [def.name]: value, version: series.version }), def.name);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('the series options (skip_dates, scope, from_date, include_changed, status) refuse wrong values with 400 naming them', async () => {
    const option = fc.oneof(
      fc.tuple(fc.constant('skip_dates'), fc.oneof(nonBlank, fc.integer(), fc.array(badDate, { minLength: 1, maxLength: 3 }))),
      fc.tuple(fc.constant('scope'), fc.oneof(notString, fc.constantFrom('this', 'ALL', 'some', 'following '))),
      fc.tuple(fc.constant('from_date'), badDate),
      fc.tuple(fc.constant('include_changed'), fc.oneof(nonBlank, fc.integer(), fc.array(fc.boolean(), { maxLength: 2 }))),
      // a status moves the lessons in scope, alone: beside notes even a good one is refused
      fc.tuple(fc.constant('status'), fc.oneof(notString, fc.constantFrom('REPLACED', 'canceled', 'DONE', 'CANCELED', 'NORMAL'))),
    );
    await fc.assert(
      fc.asyncProperty(option, async ([name, value]) => {
        if (name === 'skip_dates') expectNamed(await send('POST', '/api/recurring-lessons', { ...baseSeries(), skip_dates: value }), name);
        else
          expectNamed(
            await send('PATCH', `/api/recurring-lessons/${series.id}`, {
              notes: 'Ποτέ',
              scope: 'following',
              from_date: '2027-09-08',
              [name]: value,
              version: series.version,
            }),
            name,
          );
      }),
      { numRuns: RUNS * 2 },
    );
    // the PATCH-only options are unknown on POST, and skip_dates on PATCH
    for (const [k, v] of [
      ['scope', 'all'],
      ['from_date', '2027-09-08'],
      ['include_changed', true],
      ['status', 'CANCELED'],
    ] as const) {
      expectNamed(await send('POST', '/api/recurring-lessons', { ...baseSeries(), [k]: v }), k);
    }
  });

  it('unknown, read-only and system fields are 400 unknown-field', async () => {
    const readOnly = [...LESSONS.fields, ...RECURRING_LESSONS.fields].filter((f) => f.readOnly).map((f) => f.name);
    const key = fc.oneof(
      fc.constantFrom('tenant_id', 'created_at', 'updated_at', 'replaced_by', 'color', 'teacher', 'search', 'id_x', ...readOnly),
      fc.stringMatching(/^zz_[a-z_]{1,10}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        key,
        fc.jsonValue({ maxDepth: 2 }).filter((v) => !/"(__proto__|constructor)"/.test(JSON.stringify(v))),
        async (k, value) => {
          const post = await send('POST', '/api/lessons', { ...baseLesson(), [k]: value });
          expectNamed(post, k);
          expect(json(post).error.fields[k], show(post)).toBe('unknown-field');
          expectNamed(await send('PATCH', `/api/lessons/${lesson.id}`, { [k]: value, version: lesson.version }), k);
          if (!RECURRING_LESSONS.fields.some((f) => f.name === k && !f.readOnly))
            expectNamed(await send('POST', '/api/recurring-lessons', { ...baseSeries(), [k]: value }), k);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any JSON value as a body, and bad versions, are refused with a 4xx', async () => {
    const url = fc.constantFrom(['POST', '/api/lessons'], ['PATCH', 'lesson'], ['POST', '/api/recurring-lessons'], ['PATCH', 'series']) as fc.Arbitrary<
      ['POST' | 'PATCH', string]
    >;
    await fc.assert(
      fc.asyncProperty(url, fc.jsonValue({ maxDepth: 3 }), async ([method, where], value) => {
        const path = where === 'lesson' ? `/api/lessons/${lesson.id}` : where === 'series' ? `/api/recurring-lessons/${series.id}` : where;
        expectClientError(await sendRaw(method, path, JSON.stringify(value) ?? 'null'));
      }),
      { numRuns: RUNS * 2 },
    );
    for (const payload of ['{', '{"date": }', 'null', '[]', '"x"', '{"__proto__": {"x": 1}}']) {
      expectClientError(await sendRaw('POST', '/api/lessons', payload));
      expectClientError(await sendRaw('PATCH', `/api/recurring-lessons/${series.id}`, payload));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.double().filter((d) => !Number.isInteger(d)),
          fc.boolean(),
          fc.constant(null),
          fc.integer({ max: -1 }),
          fc.constant(2 ** 31),
        ),
        async (version) => {
          expectClientError(await send('PATCH', `/api/lessons/${lesson.id}`, { homework: 'Ποτέ', version }));
          expectClientError(await send('PATCH', `/api/recurring-lessons/${series.id}`, { notes: 'Ποτέ', version }));
        },
      ),
      { numRuns: RUNS },
    );
    expectError(await send('PATCH', `/api/lessons/${lesson.id}`, { homework: 'Ποτέ' }), 400, 'validation', { version: 'required' });
    expectError(await send('PATCH', `/api/recurring-lessons/${series.id}`, { notes: 'Ποτέ' }), 400, 'validation', { version: 'required' });
  });

  it('junk list queries on /api/lessons and /api/recurring-lessons answer 200 or 400 validation, never more', async () => {
    const param = fc.oneof(
      fc.constantFrom(
        'q',
        '_sort',
        '_order',
        '_start',
        '_end',
        'date_gte',
        'date_lte',
        'teacher_id',
        'status',
        'kind',
        'recurring_lesson_id',
        'tag_ids',
        'detached',
        'start_time_gte',
        'weekdays',
        'nosuch',
        'date_like',
      ),
      fc.constantFrom(...[...LESSONS.fields, ...RECURRING_LESSONS.fields].map((f) => f.name)),
      fc.string({ maxLength: 20 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        "'; DROP TABLE lessons; --",
        '%',
        '_',
        '\\',
        '1 OR 1=1',
        'id desc, (select 1)',
        '\u0000',
        '9'.repeat(30),
        '2027-02-30',
        '25:00',
        '-1',
        '2147483648',
        'NORMAL,CANCELED',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('lessons', 'recurring-lessons'), param, value, async (resource, p, v) => {
        const r = await send('GET', `/api/${resource}?${encodeURIComponent(p)}=${encodeURIComponent(v)}`);
        if (r.statusCode !== 200) expectError(r, 400, 'validation');
        else expect(r.headers['x-total-count'], show(r)).toBe(String(json(r).total));
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('junk calendar queries (from, to, ids) answer 200 or 400 validation, never more', async () => {
    const date = fc.oneof(
      fc.constantFrom('2027-08-01', '2027-08-20', '2027-09-30', '2027-02-30', '', '2027-8-1', 'today', '9999-12-31', '0001-01-01', "2027-08-01' OR '1'='1"),
      fc.string({ maxLength: 12 }),
    );
    const extra = fc.array(
      fc.tuple(
        fc.constantFrom('teacher_id', 'class_id', 'room_id', 'subject_id', 'status', 'from', 'to', 'nosuch', '_start', '_sort'),
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1', '0', '-1', '1.5', '2147483648', 'NORMAL', 'nosuch', '1,2')),
      ),
      { maxLength: 4 },
    );
    await fc.assert(
      fc.asyncProperty(date, date, extra, async (from, to, more) => {
        const q = [`from=${encodeURIComponent(from)}`, `to=${encodeURIComponent(to)}`, ...more.map(([k, v]) => `${k}=${encodeURIComponent(v)}`)].join('&');
        const r = await send('GET', `/api/lessons/calendar?${q}`);
        if (r.statusCode !== 200) expectError(r, 400, 'validation');
        else expect(Array.isArray(json(r).rows), show(r)).toBe(true);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('ids that are not ids answer 400 or 404 on every lessons route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('abc', '1.5', '-1', '0', '99999999999999999999', "1'", '1 OR 1=1', '2147483648', '1e3'),
          fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !(Number(s) >= 1)),
        ),
        fc.constantFrom('GET', 'PATCH', 'DELETE') as fc.Arbitrary<'GET' | 'PATCH' | 'DELETE'>,
        fc.constantFrom('lessons', 'recurring-lessons'),
        async (id, method, resource) => {
          const r = await send(method, `/api/${resource}/${encodeURIComponent(id)}`, method === 'PATCH' ? { version: 1 } : undefined);
          const body = expectClientError(r);
          expect([400, 404], show(r)).toContain(r.statusCode);
          expect(['validation', 'not-found']).toContain(body.error.code);
        },
      ),
      { numRuns: RUNS * 2 },
    );
    for (const q of ['from_date=2027-02-30', 'from_date=x', 'include_changed=maybe']) {
      expectClientError(await send('DELETE', `/api/recurring-lessons/${series.id}?${q}`));
    }
    for (const id of ['abc', '-1', '2147483648']) {
      const r = await send('GET', `/api/teachers/${id}/calendar-feed`);
      expect([400, 404], show(r)).toContain(r.statusCode);
      expectClientError(await send('POST', `/api/teachers/${id}/calendar-feed`));
    }
  });

  it('after all of it the data is unchanged', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
