// Reads on a PostgreSQL server travel as one simple-protocol message with their parameters
// written into the text as quoted literals (withTenantReads). Here, whatever a value holds —
// quotes, backslashes, dollar quotes, comment openers, semicolons, `$1`, unpaired surrogates,
// megabytes of it — it reads back exactly as it does through a bound parameter, so writing it
// in never changes what a query means; a NUL, which query text cannot carry, goes as a bound
// parameter and fails the same clean way. Then the same through the HTTP API: hostile searches
// and filters of the students list answer 200 with the right page, and the table is intact.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeSearch } from '../../../domain/index';
import { expectStatus, json, outcome, show, type Outcome as OutcomeOf } from '../support/api-helpers';
import '../support/fast-check-seed';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { withTenant } from '../../../server/db/doors';
import { sendsTogether, withTenantReads } from '../../../server/db/read-batch';
import { inlineParams, queryRows, quoteLiteral } from '../../../server/db/statements';

type Row = Record<string, unknown>;
/** What a query came to: its rows, or the SQLSTATE it failed with (a failure must be the database refusing a value, never anything else). */
type Outcome = OutcomeOf<Row>;

const dialect = new PgDialect();

/** Pieces that mean something to SQL's lexer, or to the inlining itself. */
const TRICKY = [
  "'",
  "''",
  '\\',
  "\\'",
  '"',
  '$',
  '$$',
  '$1',
  '$2',
  '$10',
  '$tag$',
  "E'",
  "e'\\x41",
  "U&'",
  '--',
  '/*',
  '*/',
  ';',
  "'); drop table students; --",
  "' or '1'='1",
  '\n',
  '\r',
  '\t',
  ' ',
  '%',
  '_',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '😀',
  'ς',
  'Ά',
  '\u0301',
  '\uFEFF',
  '\u2028',
  '\u0000',
];

/** Any text: random code points (NUL included), SQL-lexer pieces, unpaired surrogates, long runs. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 30 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 })), maxLength: 30 }),
  fc.tuple(fc.string({ unit: fc.constantFrom(...TRICKY), minLength: 1, maxLength: 6 }), fc.integer({ min: 1_000, max: 20_000 })).map(([s, n]) => s.repeat(n)),
);

/** Doubles (NaN, ±Infinity, -0, the extremes), integers, bigints and digit strings past 64 bits. */
const anyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2, -(2 ** 63)),
  fc.bigInt(),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map(String),
);

/** Whether a parameter's text holds a NUL (JSON objects write theirs as an escape). */
const carriesNul = (param: unknown): boolean => (typeof param === 'string' ? param.includes('\0') : Array.isArray(param) ? param.some(carriesNul) : false);
/** What PostgreSQL keeps of a JS string: UTF-8 has no unpaired surrogates, so each becomes U+FFFD. */
const stored = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** A value for a failure's message (bigints included), cut short. */
const shown = (value: unknown) => String(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).slice(0, 300);

it('a value is quoted exactly as node-postgres quotes it, megabytes of quotes and backslashes included', () => {
  fc.assert(
    fc.property(anyString, (s) => {
      expect(quoteLiteral(s)).toBe(pg.escapeLiteral(s));
    }),
    { numRuns: 300 },
  );
  for (const s of ['', "'", '\\', "\\'", "'".repeat(1 << 20), '\\'.repeat(1 << 20), "a\\'b".repeat(100_000)]) expect(quoteLiteral(s)).toBe(pg.escapeLiteral(s));
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'postgres'))('values written into read queries on %s', (kind) => {
  let t: TestApp;
  let tenantId: number;

  /** Through withTenantReads: inlined, one simple-protocol message behind the tenant settings. */
  const inlined = (query: SQL) =>
    outcome(() =>
      withTenantReads(t.database, tenantId, (tx) => {
        expect(sendsTogether(tx)).toBe(true);
        return queryRows<Row>(tx, query);
      }),
    );
  /** Through withTenant: the same statement with its parameters bound (extended protocol). */
  const bound = (query: SQL) => outcome(() => withTenant(t.database, tenantId, (tx) => queryRows<Row>(tx, query)));

  /** The inlined read answers exactly what the bound one answers, and returns it for more checks. */
  async function sameBothWays(query: SQL, value: unknown): Promise<Outcome> {
    const { sql: text, params } = dialect.sqlToQuery(query);
    // Without a NUL the statement really is sent inlined, as one text.
    expect(inlineParams(text, params) === undefined).toBe(params.some(carriesNul));
    const [viaText, viaParams] = await Promise.all([inlined(query), bound(query)]);
    expect(viaText, `value ${shown(value)}`).toEqual(viaParams);
    return viaText;
  }

  beforeAll(async () => {
    t = await startApp(kind);
    ({ tenantId } = await t.createTenant('inlined'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a string reads back as itself, in a select list, a cast and a where clause; a NUL is a clean error', async () => {
    await fc.assert(
      fc.asyncProperty(anyString, async (s) => {
        const got = await sameBothWays(
          sql`select ${s}::text as v, length(${s}::text) as n, ${s}::text = ${s}::text as same, 'tail' as tail,
                (select count(*)::int from (values ('a'), ('b'), (${s})) as w(x) where x = ${s}) as matches`,
          s,
        );
        if (s.includes('\0')) {
          expect(got).toEqual({ error: '22021' });
          return;
        }
        const expected = stored(s);
        expect(got).toEqual({
          rows: [{ v: expected, n: [...expected].length, same: true, tail: 'tail', matches: 1 + Number(expected === 'a' || expected === 'b') }],
        });
      }),
      { numRuns: 150 },
    );
  });

  it('twelve parameters in one statement each land in their own place ($1 is not $10)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyString, { minLength: 12, maxLength: 12 }), async (values) => {
        const columns = sql.join(
          values.map((v, i) => sql`${v}::text as ${sql.identifier(`c${i}`)}`),
          sql`, `,
        );
        const got = await sameBothWays(sql`select ${columns}`, values);
        if (values.some((v) => v.includes('\0'))) expect(got).toEqual({ error: '22021' });
        else expect(got).toEqual({ rows: [Object.fromEntries(values.map((v, i) => [`c${i}`, stored(v)]))] });
      }),
      { numRuns: 40 },
    );
  });

  it('reads sent together stay apart: each answers its own value, and one with a NUL fails alone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyString, { minLength: 2, maxLength: 6 }), async (values) => {
        const answers = await withTenantReads(t.database, tenantId, (tx) =>
          Promise.all(values.map((v, i) => outcome(() => queryRows<Row>(tx, sql`select ${i}::int as i, ${v}::text as v`)))),
        );
        expect(answers).toEqual(values.map((v, i) => (v.includes('\0') ? { error: '22021' } : { rows: [{ i, v: stored(v) }] })));
      }),
      { numRuns: 40 },
    );
  });

  it('a number reads back alike in every numeric type, and a float8 as itself', async () => {
    await fc.assert(
      fc.asyncProperty(anyNumber, fc.constantFrom('float8', 'float4', 'numeric', 'int4', 'int8', 'text'), async (n, type) => {
        const got = await sameBothWays(sql`select ${n}::${sql.raw(type)} as v`, n);
        if (type === 'float8' && typeof n === 'number') expect(got).toEqual({ rows: [{ v: Object.is(n, -0) ? 0 : n }] });
      }),
      { numRuns: 200 },
    );
  });

  it('booleans and null read back as themselves', async () => {
    for (const b of [true, false]) expect(await sameBothWays(sql`select ${b}::boolean as v, ${b}::text as t`, b)).toEqual({ rows: [{ v: b, t: String(b) }] });
    expect(await sameBothWays(sql`select ${null}::text is null as v, coalesce(${null}::int, 7) as n`, null)).toEqual({ rows: [{ v: true, n: 7 }] });
  });

  it('a date reads back as the same instant; one PostgreSQL cannot hold fails alike both ways', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
          fc.date({ noInvalidDate: true }),
        ),
        async (d) => {
          const got = await sameBothWays(sql`select round(extract(epoch from ${d}::timestamptz) * 1000)::float8 as ms, ${d}::date::text as day`, d);
          if ('rows' in got) expect(got.rows[0]!.ms).toBe(d.getTime());
        },
      ),
      { numRuns: 100 },
    );
  });

  it('an array reads back element by element, NULLs and nesting included', async () => {
    const element = fc.oneof({ weight: 4, arbitrary: anyString.filter((s) => s.length < 2_000) }, { weight: 1, arbitrary: fc.constant(null) });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(element, { maxLength: 8 }), fc.array(fc.array(element, { minLength: 2, maxLength: 2 }), { maxLength: 4 })),
        async (arr) => {
          const got = await sameBothWays(sql`select ${sql.param(arr)}::text[] as v`, arr);
          if (arr.flat().some((v) => v?.includes('\0'))) expect(got).toEqual({ error: '22021' });
          else
            expect(got).toEqual({
              rows: [{ v: arr.map((v) => (Array.isArray(v) ? v.map((w) => (w === null ? null : stored(w))) : v === null ? null : stored(v))) }],
            });
        },
      ),
      { numRuns: 100 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(anyNumber, { maxLength: 6 }), async (arr) => {
        await sameBothWays(sql`select ${sql.param(arr)}::float8[] as f, ${sql.param(arr)}::numeric[]::text as n`, arr);
      }),
      { numRuns: 60 },
    );
  });

  it('a JSON object reads back as itself, as json and as jsonb', async () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 4 }));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6, noNullPrototype: true }), async (obj) => {
        // What JSON.stringify writes is what both ways send: read back, it is the object again,
        // unless PostgreSQL refuses what it cannot hold (\u0000 in jsonb, an unpaired surrogate).
        const roundTrip = JSON.parse(JSON.stringify(obj));
        for (const type of ['json', 'jsonb']) {
          const got = await sameBothWays(sql`select ${sql.param(obj)}::${sql.raw(type)} as v`, obj);
          if ('rows' in got) expect(got).toEqual({ rows: [{ v: roundTrip }] });
          else expect(JSON.stringify(obj)).toMatch(/\\u0000|\\ud[89a-f]/i);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('megabyte strings of quotes and backslashes read back whole', async () => {
    for (const s of ["'".repeat(1 << 20), '\\'.repeat(1 << 20), "$$'--;".repeat(200_000)]) {
      expect(await sameBothWays(sql`select ${s}::text = ${s}::text as same, length(${s}::text) as n, md5(${s}::text) as h`, s.slice(0, 20))).toEqual({
        rows: [{ same: true, n: s.length, h: createHash('md5').update(s).digest('hex') }],
      });
    }
  });
});

describe.each(DATABASE_KINDS)('hostile searches and filters of the students list on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const TENANT = 'hostile';
  const NAMES = ["O'Brien", "Robert'); DROP TABLE students; --", 'back\\slash', '$$dollar$$', "E'escape", '50%_off', '/* comment */'];
  const LAST_NAMES = [...NAMES, 'Παπαδοπούλου'];
  const get = (query: string) => t.request({ method: 'GET', url: `/api/students?${query}`, token, tenant: TENANT });
  const page = async (query: string) => {
    const res = await get(query);
    expectStatus(res, 200);
    const body = json(res);
    expect(Number(res.headers['x-total-count']), show(res)).toBe(body.total);
    return body as { data: Row[]; total: number };
  };
  const everyone = async () => (await page('_start=0&_end=200&_sort=id')).data.map((s) => [s.id, s.first_name, s.last_name]);
  let before: unknown[];

  beforeAll(async () => {
    t = await startApp(kind);
    token = (await t.createTenant(TENANT)).admin.token;
    for (const last_name of LAST_NAMES) {
      const res = await t.request({ method: 'POST', url: '/api/students', token, tenant: TENANT, body: { first_name: 'Μαρία', last_name } });
      expectStatus(res, 201);
    }
    before = await everyone();
    expect(before).toHaveLength(LAST_NAMES.length);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('an exact filter by a hostile name finds that student alone; a search finds it too', async () => {
    for (const name of NAMES) {
      const exact = await page(`last_name=${encodeURIComponent(name)}`);
      expect(exact.data.map((s) => s.last_name)).toEqual([name]);
      expect(exact.total).toBe(1);
      const found = await page(`q=${encodeURIComponent(name)}`);
      expect(found.data.map((s) => s.last_name)).toContain(name);
      const like = await page(`last_name_like=${encodeURIComponent(name)}`);
      expect(like.data.map((s) => s.last_name)).toContain(name);
    }
    // `%` and `_` are letters in a search, not wildcards.
    expect((await page(`last_name_like=${encodeURIComponent('%_')}`)).data.map((s) => s.last_name)).toEqual(['50%_off']);
  });

  it('injection attempts are just text: 200 with the page of students whose names hold that text, and the table is intact', async () => {
    const lastNames = async (query: string) => {
      const { data, total } = await page(query);
      expect(total, query).toBe(data.length);
      return data.map((s) => s.last_name as string).sort();
    };
    const holding = (test: (last: string) => boolean) => LAST_NAMES.filter(test).sort();
    for (const attack of [
      "'); drop table students; --",
      "' or '1'='1",
      "x' or 1=1 --",
      '$$; delete from students; $$',
      "E'\\'; truncate students; --",
      '*/ or 1=1 /*',
    ]) {
      const text = encodeURIComponent(attack);
      expect(await lastNames(`last_name=${text}`)).toEqual([]);
      expect(await lastNames(`first_name_ne=${text}&last_name=${text}`)).toEqual([]);
      expect(await lastNames(`last_name_like=${text}`)).toEqual(holding((last) => last.toLowerCase().includes(attack.toLowerCase())));
      const words = normalizeSearch(attack).split(' ');
      expect(await lastNames(`q=${text}`)).toEqual(holding((last) => words.every((w) => normalizeSearch(`Μαρία ${last}`).includes(w))));
    }
    // The first attack is part of one student's name: the search finds her, and only her.
    expect(await lastNames(`q=${encodeURIComponent("'); drop table students; --")}`)).toEqual(["Robert'); DROP TABLE students; --"]);
    expect(await everyone()).toEqual(before);
  });

  it('any text as a search or filter answers 200, and an exact filter returns only exact matches', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyString.filter((s) => s.length <= 100 && !s.includes('\0')),
        async (raw) => {
          const s = stored(raw);
          const exact = await page(`last_name=${encodeURIComponent(s)}`);
          expect(exact.data.every((row) => row.last_name === s)).toBe(true);
          expect(exact.total).toBe(LAST_NAMES.includes(s) ? 1 : 0);
          await page(`q=${encodeURIComponent(s)}`);
          await page(`last_name_like=${encodeURIComponent(s)}&_sort=last_name&_order=desc`);
        },
      ),
      { numRuns: 60 },
    );
    expect(await everyone()).toEqual(before);
  });

  it('a NUL in a search or filter is a clean 400, never a 500', async () => {
    for (const query of ['q=a%00b', 'last_name=%00', 'last_name_like=%27%00--']) {
      const res = await get(query);
      expect(res.statusCode, show(res)).toBe(400);
    }
    expect(await everyone()).toEqual(before);
  });
});
