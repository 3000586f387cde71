// The directory: every resource, table-driven
// from its domain ResourceDef so that a field added to domain/resources/ is covered here without
// a new test: create and read back (with reference labels), update with version (409 stale),
// delete, list with every filterable field and operator and every sortable field, Greek q
// search, paging, other-tenant ids (404 and unchanged; 400 as references), history of writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, json, show } from '../support/api-helpers';
import { FIELD_REGISTRY, SYSTEM_FIELDS, type FieldDef, type ResourceDef } from '../../../domain/fields';
import { CLASSES, creationOrder, RESOURCES } from '../../../domain/resources/index';
import { normalizeSearch, sortKey } from '../../../domain/text';

type Row = Record<string, any>;

/** Resources tested in their own files. */
// The foundation's resources, and lessons (tests/api/lessons/lessons-*.test.ts: their writes follow the calendar's rules).
// The money resources have their own tests (money-*.test.ts); folders and files too (files-suite.ts:
// a file is created by an upload, never by a JSON body).
const EARLIER = ['users', 'tenants', 'lessons', 'recurring-lessons', 'contracts', 'payments', 'expenses', 'expense-categories', 'folders', 'files'];
/** Creation order: a resource after those it references, derived from the declarations (classes.student_ids is filled afterwards). */
const ORDER = creationOrder(Object.values(RESOURCES).filter((res) => !EARLIER.includes(res.name)));
/** student-custom-fields live in their own tenant: a required definition would bind every student write. */
const OWN_TENANT = new Set(['student-custom-fields']);

const N = 5;
const UPPER = ['Α', 'Β', 'Γ', 'Δ', 'Ε'];
const WORDS = ['Μαθηματικά', 'Φυσική', 'Έκθεση', 'Χημεία', 'Ιστορία'];
const LATIN = 'abcde';
const COLORS = ['#aa0000', '#00bb00', '#0000cc', '#dddd00', '#00eeee'];
const PASSWORD = 'teacher-password-1';
/** Tax numbers (ΑΦΜ) with right check digits. */
const TAX_IDS = ['100000003', '111111114', '122222225', '133333336', '144444447'];

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
/** Row i's value index for a field: a different non-monotonic permutation per field, so that no sort equals creation order. */
const perm = (field: string, i: number) => {
  const h = hash(field);
  return ((h % 2 ? 2 : 3) * i + (h >>> 3)) % N;
};
const labelKey = (field: string) => (field.endsWith('_ids') ? `${field.slice(0, -4)}${field.slice(0, -4).endsWith('s') ? 'es' : 's'}` : field.slice(0, -3));
const writable = (res: ResourceDef) => res.fields.filter((f) => !f.readOnly);
const readable = (res: ResourceDef) => [...SYSTEM_FIELDS, ...res.fields].filter((f) => !f.writeOnly);
const isPerson = (name: string) => name === 'teachers' || name === 'students' || name === 'guardians' || name === 'users';
const nameOf = (resource: string, row: Row) => (isPerson(resource) ? `${row.first_name} ${row.last_name}` : row.name);
const CHOICE = new Set(['SINGLE_CHOICE', 'MULTIPLE_CHOICE']);

/** A valid value of `def` for value index p, or undefined when it has nothing to point to yet. */
function valueOf(def: FieldDef, p: number, targets: Record<string, number[]>): unknown {
  const squeeze = def.name.replace(/_/g, '');
  switch (def.type) {
    case 'TEXT':
      return `${UPPER[p]} ${WORDS[(p + hash(def.name)) % N]} ${squeeze}${p}`.slice(0, def.max ?? 200).trimEnd();
    case 'LONG_TEXT':
      return `Σημειώσεις για ${WORDS[(p + 2) % N]} ${squeeze}${p}`;
    case 'EMAIL':
      return `${LATIN[p]}${squeeze}${p}@example.gr`;
    case 'PHONE':
      return `+30 69${p}0 000 ${p}${p}${p}`;
    case 'TAX_ID':
      return TAX_IDS[p];
    case 'DATE':
      return `20${10 + p}-0${p + 1}-1${p}`;
    case 'NUMBER':
      return Math.min(def.max ?? 1000, (def.min ?? 0) + p * 7 + 1);
    case 'BOOLEAN':
      return p % 2 === 0;
    case 'ENUM':
    case 'SINGLE_CHOICE':
      return def.options![p % def.options!.length];
    case 'COLOR':
      return COLORS[p];
    case 'USERNAME':
      return `${LATIN[p]}user${p}`;
    case 'PASSWORD':
      return PASSWORD;
    case 'KEY':
      return `${LATIN[p]}key${p}`;
    case 'CUSTOM_VALUES':
      return {};
    case 'OPTIONS':
      return undefined; // set by the definition's type below
    case 'REFERENCE': {
      const t = targets[def.reference!];
      return t?.length ? t[p % t.length] : undefined;
    }
    case 'REFERENCES': {
      const t = targets[def.reference!];
      return t?.length ? [...new Set([t[p % t.length], t[(p + 1) % t.length]])] : undefined;
    }
    default:
      throw new Error(`no test value for field type ${def.type} (${def.name}): add one to valueOf`);
  }
}

/** A create body for row i of `res`. */
function bodyOf(res: ResourceDef, i: number, targets: Record<string, number[]>): Row {
  const body: Row = {};
  for (const def of writable(res)) {
    const v = valueOf(def, perm(def.name, i), targets);
    if (v !== undefined) body[def.name] = v;
  }
  if (res.name === 'student-custom-fields') body.options = CHOICE.has(body.type) ? ['Πρώτη', 'Δεύτερη', 'Τρίτη'] : null;
  return body;
}

const sameSet = (a: unknown, b: unknown) => JSON.stringify([...((a as number[]) ?? [])].sort()) === JSON.stringify([...((b as number[]) ?? [])].sort());

/** Which rows a filter should return, computed from the rows themselves. */
interface FilterCase {
  query: string;
  keep(row: Row): boolean;
}

const lc = (v: unknown) => String(v).toLowerCase();
const ASCII_WINDOW = /^[a-z0-9@.+]+$/;

function filterCases(res: ResourceDef, rows: Row[], targets: Record<string, number[]>): FilterCase[] {
  const cases: FilterCase[] = [];
  const enc = encodeURIComponent;
  for (const def of readable(res).filter((f) => f.filterable)) {
    const f = def.name;
    const ops = FIELD_REGISTRY[def.type].ops;
    const held = rows.flatMap((r) => (def.type === 'REFERENCES' ? (r[f] ?? []) : r[f] === null || r[f] === undefined ? [] : [r[f]]));
    const distinct = [...new Set(held.map((v) => JSON.stringify(v)))].map((s) => JSON.parse(s));
    const fallback = () => (def.type === 'REFERENCES' || def.type === 'REFERENCE' ? (targets[def.reference ?? ''] ?? [1])[0] : valueOf(def, 1, targets));
    const a = distinct[0] ?? (def.type === 'INSTANT' ? undefined : fallback());
    const b = distinct[1] ?? a;
    const c = distinct[2] ?? a;
    if (def.type === 'REFERENCES') {
      cases.push({ query: `${f}=${a}`, keep: (r) => (r[f] ?? []).includes(a) });
      cases.push({ query: `${f}=${a}&${f}=${c}`, keep: (r) => (r[f] ?? []).includes(a) || (r[f] ?? []).includes(c) });
      continue;
    }
    if (def.type === 'INSTANT') {
      // Instants are compared through bounds that fall between two rows' milliseconds.
      const times = [...new Set(held.map((v) => Date.parse(v)))].sort((x, y) => x - y);
      const gap = times.findIndex((t, k) => k > 0 && t - times[k - 1] >= 2);
      const mid = gap > 0 ? times[gap - 1] + 1 : times[0];
      const at = new Date(mid).toISOString();
      cases.push({ query: `${f}_gte=${enc(at)}`, keep: (r) => Date.parse(r[f]) >= mid });
      cases.push({ query: `${f}_lte=${enc(at)}`, keep: (r) => Date.parse(r[f]) < mid });
      cases.push({ query: `${f}_gte=2000-01-01`, keep: () => true });
      cases.push({ query: `${f}_lte=2000-01-01`, keep: () => false });
      continue;
    }
    const fmt = (v: unknown) => enc(String(v));
    if (ops.includes('eq') || ops.includes('like')) {
      if (ops.includes('eq')) {
        cases.push({ query: `${f}=${fmt(b)}`, keep: (r) => r[f] === b });
        cases.push({ query: `${f}=${fmt(a)}&${f}=${fmt(c)}`, keep: (r) => r[f] === a || r[f] === c });
      }
    }
    if (ops.includes('ne')) cases.push({ query: `${f}_ne=${fmt(b)}`, keep: (r) => r[f] === null || r[f] === undefined || r[f] !== b });
    if (ops.includes('gte') || ops.includes('lte')) {
      const sorted = [...distinct].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const m = sorted[Math.floor(sorted.length / 2)] ?? a;
      if (ops.includes('gte')) cases.push({ query: `${f}_gte=${fmt(m)}`, keep: (r) => r[f] !== null && r[f] !== undefined && r[f] >= m });
      if (ops.includes('lte')) cases.push({ query: `${f}_lte=${fmt(m)}`, keep: (r) => r[f] !== null && r[f] !== undefined && r[f] <= m });
      if (ops.includes('gte') && ops.includes('lte') && sorted.length >= 3) {
        const lo = sorted[1];
        const hi = sorted[sorted.length - 2];
        cases.push({ query: `${f}_gte=${fmt(lo)}&${f}_lte=${fmt(hi)}`, keep: (r) => r[f] !== null && r[f] !== undefined && r[f] >= lo && r[f] <= hi });
      }
    }
    if (ops.includes('like')) {
      // The most selective lower-case ASCII window of a value (collation-independent), matched as a substring.
      const text = String(b);
      let best: string | undefined;
      let bestCount = Infinity;
      for (let k = 0; k + 4 <= text.length; k++) {
        const w = text.slice(k, k + 4);
        if (!ASCII_WINDOW.test(w)) continue;
        const count = rows.filter((r) => r[f] != null && lc(r[f]).includes(w)).length;
        if (count < bestCount) [best, bestCount] = [w, count];
      }
      if (best) cases.push({ query: `${f}_like=${enc(best)}`, keep: (r) => r[f] != null && lc(r[f]).includes(best!) });
      // LIKE wildcards are plain characters
      cases.push({ query: `${f}_like=${enc('%')}`, keep: (r) => r[f] != null && String(r[f]).includes('%') });
      cases.push({ query: `${f}_like=${enc('_')}`, keep: (r) => r[f] != null && String(r[f]).includes('_') });
    }
  }
  return cases;
}

/** Whether `keys` is in order for a field of this type (ties allowed; nulls ignored, where they go is the server's choice). */
function inOrder(def: FieldDef, keys: unknown[], order: 'asc' | 'desc', labels: Map<number, string>): boolean {
  const present = keys.filter((k) => k !== null && k !== undefined);
  const seqs: Array<Array<number | string>> = [];
  switch (def.type) {
    case 'NUMBER':
    case 'MONEY':
      seqs.push(present as number[]);
      break;
    case 'BOOLEAN':
      seqs.push(present.map((k) => (k ? 1 : 0)));
      break;
    case 'INSTANT':
      seqs.push(present.map((k) => Date.parse(String(k))));
      break;
    case 'ENUM':
    case 'SINGLE_CHOICE':
      // alphabetical or in the order the options are declared
      seqs.push(
        present.map(String),
        present.map((k) => def.options!.indexOf(String(k))),
      );
      break;
    case 'REFERENCE':
      // by id, or by the referenced row's label
      seqs.push(present as number[]);
      if (def.name !== 'id') seqs.push(present.map((k) => labels.get(k as number) ?? ''));
      break;
    case 'TEXT':
    case 'LONG_TEXT':
    case 'EMAIL':
    case 'USERNAME':
      // as a Greek reader orders words: accents and case ignored
      seqs.push(present.map((k) => sortKey(String(k))));
      break;
    default:
      seqs.push(present.map(String));
  }
  return seqs.some((seq) => seq.every((k, idx) => idx === 0 || (order === 'asc' ? seq[idx - 1] <= k : seq[idx - 1] >= k)));
}

describe.each(DATABASE_KINDS)('directory resources on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;
  /** Tenant "dirlist": N rows of every resource, never changed after creation. */
  let listing: Awaited<ReturnType<TestApp['createTenant']>>;
  /** Tenant "dircf": the student-custom-fields rows. */
  let cfTenant: Awaited<ReturnType<TestApp['createTenant']>>;
  /** Tenant "demo": the create/update/delete lifecycle of one row per resource. */
  let demo: Awaited<ReturnType<TestApp['createUser']>>;

  const listed: Record<string, Row[]> = {};
  const listTargets: Record<string, number[]> = {};
  const demoTargets: Record<string, number[]> = {};
  const labelNames = new Map<string, Map<number, string>>();

  const where = (res: ResourceDef) =>
    OWN_TENANT.has(res.name) ? { token: cfTenant.admin.token, tenant: 'dircf' } : { token: listing.admin.token, tenant: 'dirlist' };
  const call = (who: { token: string; tenant: string }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: who.token, tenant: who.tenant, clientType: 'api' });
  const asDemo = () => ({ token: demo.token, tenant: 'demo' });
  const asListing = () => ({ token: listing.admin.token, tenant: 'dirlist' });

  async function listAll(res: ResourceDef, query = ''): Promise<{ rows: Row[]; total: number; res: Response }> {
    const r = await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=200${query ? `&${query}` : ''}`);
    expect(r.statusCode, `${res.name}?${query}: ${show(r)}`).toBe(200);
    const body = json(r);
    return { rows: body.data, total: body.total, res: r };
  }

  /** Checks a returned row against the body that wrote it: values, labels, system fields, no write-only fields. */
  function expectRowMatches(res: ResourceDef, data: Row, body: Row, problems: string[]) {
    const say = (m: string) => problems.push(`${res.name} #${data?.id}: ${m}`);
    if (!Number.isInteger(data.id)) say('id is not an integer');
    if (!Number.isInteger(data.version)) say('version is not an integer');
    for (const k of ['created_at', 'updated_at'])
      if (typeof data[k] !== 'string' || Number.isNaN(Date.parse(data[k]))) say(`${k} is not an instant: ${data[k]}`);
    for (const def of res.fields) {
      if (def.writeOnly) {
        if (def.name in data) say(`write-only ${def.name} is returned`);
        continue;
      }
      if (!(def.name in data)) {
        say(`field ${def.name} is missing`);
        continue;
      }
      const sent = body[def.name];
      if (def.type === 'REFERENCES') {
        const want = sent ?? [];
        if (!sameSet(data[def.name], want)) say(`${def.name} = ${JSON.stringify(data[def.name])}, sent ${JSON.stringify(want)}`);
        const labels = data[labelKey(def.name)];
        const names = labelNames.get(def.reference!);
        const expected = (data[def.name] ?? []).map((id: number) => ({ id, name: names?.get(id) }));
        const got = Array.isArray(labels) ? [...labels].sort((x, y) => x.id - y.id).map((l: Row) => ({ id: l.id, name: l.name })) : labels;
        if (JSON.stringify(got) !== JSON.stringify(expected.sort((x: Row, y: Row) => x.id - y.id))) {
          say(`label ${labelKey(def.name)} = ${JSON.stringify(labels)}, expected ${JSON.stringify(expected)}`);
        }
      } else if (def.type === 'REFERENCE') {
        if (def.readOnly) continue;
        if ((data[def.name] ?? null) !== (sent ?? null)) say(`${def.name} = ${data[def.name]}, sent ${sent}`);
        const label = data[labelKey(def.name)];
        if (sent === undefined || sent === null) {
          if (label !== null) say(`label ${labelKey(def.name)} of an unset reference is ${JSON.stringify(label)}, expected null`);
        } else {
          const name = labelNames.get(def.reference!)?.get(sent);
          if (label?.id !== sent || label?.name !== name) say(`label ${labelKey(def.name)} = ${JSON.stringify(label)}, expected {id: ${sent}, name: ${name}}`);
        }
      } else if (def.readOnly) {
      } else if (sent !== undefined && JSON.stringify(data[def.name]) !== JSON.stringify(sent)) {
        say(`${def.name} = ${JSON.stringify(data[def.name])}, sent ${JSON.stringify(sent)}`);
      } else if (sent === undefined && def.default !== undefined && JSON.stringify(data[def.name]) !== JSON.stringify(def.default)) {
        say(`${def.name} = ${JSON.stringify(data[def.name])}, expected the default ${JSON.stringify(def.default)}`);
      }
    }
  }

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    listing = await t.createTenant('dirlist');
    cfTenant = await t.createTenant('dircf');
    demo = await t.createUser(rootToken, { role: 'ADMIN', first_name: 'Δήμητρα', last_name: 'Δοκιμή' });
    labelNames.set('users', new Map([[listing.admin.id, 'Ελένη Διαχειρίστρια']]));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every resource of the domain but the earlier ones is covered here, after the rows its single references need', () => {
    const names = ORDER.map((r) => r.name);
    expect(names.length).toBe(Object.keys(RESOURCES).length - EARLIER.length);
    for (const res of ORDER)
      for (const ref of res.fields.filter((f) => f.type === 'REFERENCE' && names.includes(f.reference!) && f.reference !== res.name))
        expect(names.indexOf(ref.reference!), `${res.name}.${ref.name}`).toBeLessThan(names.indexOf(res.name));
    expect(names.indexOf('classes')).toBeLessThan(names.indexOf('students'));
    for (const res of ORDER) for (const def of writable(res)) expect(() => valueOf(def, 0, {}), `${res.name}.${def.name}`).not.toThrow();
  });

  it(`creates ${N} rows of every resource: 201 {id, data} with the sent values and labels; GET one answers the same`, async () => {
    const problems: string[] = [];
    for (const res of ORDER) {
      listed[res.name] = [];
      listTargets[res.name] = [];
      labelNames.set(res.name, new Map());
      for (let i = 0; i < N; i++) {
        const body = bodyOf(res, i, listTargets);
        const r = await call(where(res), 'POST', `/api/${res.name}`, body);
        if (r.statusCode !== 201) {
          problems.push(`POST /api/${res.name} ${JSON.stringify(body)} -> ${show(r)}`);
          continue;
        }
        const created = json(r);
        if (Object.keys(created).sort().join() !== 'data,id' || created.id !== created.data?.id) problems.push(`${res.name}: create answered ${show(r)}`);
        labelNames.get(res.name)!.set(created.id, nameOf(res.name, created.data));
        expectRowMatches(res, created.data, body, problems);
        if (res.name === 'teachers') expectNoSecret(r, PASSWORD);
        const one = await call(where(res), 'GET', `/api/${res.name}/${created.id}`);
        if (one.statusCode !== 200 || JSON.stringify(Object.keys(json(one))) !== '["data"]')
          problems.push(`GET /api/${res.name}/${created.id} -> ${show(one)}`);
        else if (JSON.stringify(json(one).data) !== JSON.stringify(created.data)) {
          problems.push(`GET /api/${res.name}/${created.id} differs from the create answer: ${show(one)} vs ${JSON.stringify(created.data)}`);
        }
        listed[res.name].push(created.data);
        listTargets[res.name].push(created.id);
        await new Promise((resolve) => setTimeout(resolve, 3)); // distinct created_at milliseconds
      }
    }
    // classes were created before the students they list
    for (const [i, cls] of (listed.classes ?? []).entries()) {
      const student_ids = valueOf({ name: 'student_ids', type: 'REFERENCES', reference: 'students' }, i, listTargets);
      const r = await call(asListing(), 'PATCH', `/api/classes/${cls.id}`, { student_ids, version: cls.version });
      if (r.statusCode !== 200) problems.push(`PATCH /api/classes/${cls.id} student_ids -> ${show(r)}`);
      else {
        expectRowMatches(CLASSES, json(r).data, { ...cls, student_ids }, problems);
        listed.classes[i] = json(r).data;
      }
    }
    expect(problems).toEqual([]);
  });

  describe.each(ORDER.map((res) => ({ name: res.name, res })))('$name', ({ res }) => {
    it('list answers {data, total} with X-Total-Count, the default sort, and pages with _start/_end', async () => {
      const all = await listAll(res);
      expect(all.total).toBe(N);
      expect(all.res.headers['x-total-count']).toBe(String(N));
      expect(all.rows.map((r) => r.id).sort()).toEqual([...listTargets[res.name]].sort());
      const problems: string[] = [];
      for (const row of all.rows) {
        expectRowMatches(res, row, row, problems);
        const one = json(await call(where(res), 'GET', `/api/${res.name}/${row.id}`)).data;
        if (!one || Object.entries(one).some(([k, v]) => JSON.stringify(row[k]) !== JSON.stringify(v)))
          problems.push(`list row ${JSON.stringify(row)} differs from GET one ${JSON.stringify(one)}`);
      }
      expect(problems).toEqual([]);
      const first = res.defaultSort[0];
      const def = readable(res).find((f) => f.name === first.field)!;
      expect(
        inOrder(
          def,
          all.rows.map((r) => r[first.field]),
          first.order,
          labelNames.get(def.reference ?? '') ?? new Map(),
        ),
        `default sort ${first.field} ${first.order}`,
      ).toBe(true);

      const byId = (await listAll(res, '_sort=id&_order=asc')).rows.map((r) => r.id);
      const page = await call(where(res), 'GET', `/api/${res.name}?_sort=id&_order=asc&_start=1&_end=3`);
      expectStatus(page, 200);
      expect(json(page).data.map((r: Row) => r.id)).toEqual(byId.slice(1, 3));
      expect(json(page).total).toBe(N);
      expect(page.headers['x-total-count']).toBe(String(N));
      const beyond = await call(where(res), 'GET', `/api/${res.name}?_start=50&_end=60`);
      expect(json(beyond)).toEqual({ data: [], total: N });
      expectError(await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=201`), 400, 'validation', { _end: 'too-large' });
    });

    it('filters by every filterable field with each of its operators (repeat = in)', async () => {
      const { rows } = await listAll(res);
      const cases = filterCases(res, rows, listTargets);
      expect(cases.length).toBeGreaterThan(0);
      const mismatches: string[] = [];
      for (const c of cases) {
        const r = await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=200&${c.query}`);
        const want = rows
          .filter(c.keep)
          .map((x) => x.id)
          .sort();
        if (r.statusCode !== 200) {
          mismatches.push(`?${c.query} -> ${show(r)}`);
          continue;
        }
        const got = json(r)
          .data.map((x: Row) => x.id)
          .sort();
        if (JSON.stringify(got) !== JSON.stringify(want) || json(r).total !== want.length || r.headers['x-total-count'] !== String(want.length)) {
          mismatches.push(`?${c.query} -> ids ${JSON.stringify(got)} total ${json(r).total}, expected ${JSON.stringify(want)}`);
        }
      }
      expect(mismatches).toEqual([]);
    });

    it('refuses filters on unknown, write-only or unfilterable fields and values of the wrong type', async () => {
      const bad = ['nosuch=1', 'tenant_id=1', 'search=x', 'version=1'];
      for (const def of res.fields) {
        if (def.writeOnly || !def.filterable) bad.push(`${def.name}=x`);
        if (def.filterable && ['NUMBER', 'REFERENCE', 'REFERENCES', 'DATE', 'BOOLEAN', 'ENUM', 'INSTANT'].includes(def.type))
          bad.push(`${def.name}=not-a-${def.type.toLowerCase()}`);
      }
      const mismatches: string[] = [];
      for (const q of bad) {
        const r = await call(where(res), 'GET', `/api/${res.name}?${q}`);
        if (r.statusCode !== 400 || json(r).error?.code !== 'validation') mismatches.push(`?${q} -> ${show(r)}`);
      }
      expect(mismatches).toEqual([]);
    });

    it('sorts by every sortable field, ascending and descending, and refuses other sort fields', async () => {
      const { rows } = await listAll(res);
      const all = rows.map((r) => r.id).sort();
      const mismatches: string[] = [];
      for (const def of readable(res).filter((f) => f.sortable)) {
        const labels = labelNames.get(def.reference ?? '') ?? new Map<number, string>();
        const seen: Record<string, number[]> = {};
        for (const order of ['asc', 'desc'] as const) {
          const r = await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=200&_sort=${def.name}&_order=${order}`);
          if (r.statusCode !== 200) {
            mismatches.push(`_sort=${def.name}&_order=${order} -> ${show(r)}`);
            continue;
          }
          const data: Row[] = json(r).data;
          seen[order] = data.map((x) => x.id);
          if (JSON.stringify([...seen[order]].sort()) !== JSON.stringify(all)) mismatches.push(`_sort=${def.name}&_order=${order} lost rows`);
          if (
            !inOrder(
              def,
              data.map((x) => x[def.name]),
              order,
              labels,
            )
          ) {
            mismatches.push(`_sort=${def.name}&_order=${order} -> ${JSON.stringify(data.map((x) => x[def.name]))}`);
          }
        }
      }
      // two keys: the second orders the ties of the first
      const sortable = readable(res).filter((f) => f.sortable && f.name !== 'id');
      if (sortable.length) {
        const r = await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=200&_sort=${sortable[0].name},id&_order=asc,desc`);
        if (r.statusCode !== 200) mismatches.push(`two sort keys -> ${show(r)}`);
      }
      for (const def of res.fields.filter((f) => !f.sortable || f.writeOnly)) {
        const r = await call(where(res), 'GET', `/api/${res.name}?_sort=${def.name}&_order=asc`);
        if (r.statusCode !== 400) mismatches.push(`_sort=${def.name} (not sortable) -> ${show(r)}`);
      }
      for (const q of ['_sort=nosuch', '_sort=tenant_id', `_sort=id&_order=sideways`]) {
        const r = await call(where(res), 'GET', `/api/${res.name}?${q}`);
        if (r.statusCode !== 400) mismatches.push(`${q} -> ${show(r)}`);
      }
      expect(mismatches).toEqual([]);
    });

    it('q searches the searchable fields ignoring case and Greek accents; words combine with AND', async () => {
      const { rows } = await listAll(res);
      const searchable = res.fields.filter((f) => f.searchable);
      expect(searchable.length).toBeGreaterThan(0);
      const words = (row: Row, f: FieldDef) =>
        String(row[f.name] ?? '')
          .split(/[^\p{L}\p{N}]+/u)
          .filter((w) => w.length >= 3);
      const hit = (row: Row, word: string) => searchable.some((f) => normalizeSearch(String(row[f.name] ?? '')).includes(normalizeSearch(word)));
      const mismatches: string[] = [];
      const check = async (q: string) => {
        const r = await call(where(res), 'GET', `/api/${res.name}?_start=0&_end=200&q=${encodeURIComponent(q)}`);
        const want = rows
          .filter((row) => q.split(' ').every((w) => hit(row, w)))
          .map((x) => x.id)
          .sort();
        if (r.statusCode !== 200) return mismatches.push(`q=${q} -> ${show(r)}`);
        const got = json(r)
          .data.map((x: Row) => x.id)
          .sort();
        if (JSON.stringify(got) !== JSON.stringify(want) || json(r).total !== want.length)
          mismatches.push(`q=${q} -> ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      };
      const row = rows[1];
      for (const f of searchable) {
        for (const w of words(row, f)) {
          await check(w.toUpperCase());
          await check(normalizeSearch(w));
          if (/\p{Script=Greek}/u.test(w)) await check(w.toLowerCase().replace(/ς$/, 'σ'));
        }
      }
      const multi = searchable.flatMap((f) => words(row, f)).slice(-2);
      if (multi.length === 2) await check(`${normalizeSearch(multi[0])} ${multi[1].toUpperCase()}`);
      await check('ξξξξ');
      await check('Κυριακή Ρόδος');
      expect(mismatches).toEqual([]);
      expect(rows.filter((x) => searchable.some((f) => words(row, f).some((w) => hit(x, w)))).length, 'the search words matched no row').toBeGreaterThan(0);
    });

    it('lifecycle in one tenant: create, PATCH with version (stale -> 409, unchanged), DELETE, history of each write', async () => {
      const me = asDemo();
      const make = async (i: number) => {
        const body = bodyOf(res, i, demoTargets);
        if (res.name === 'teachers') body.username = `${body.username}demo`;
        if (res.name === 'student-custom-fields') Object.assign(body, { key: `${body.key}x`, required: false });
        const r = await call(me, 'POST', `/api/${res.name}`, body);
        expect(r.statusCode, `POST ${JSON.stringify(body)}: ${show(r)}`).toBe(201);
        return json(r).data as Row;
      };
      const keep = await make(0);
      (demoTargets[res.name] ??= []).push(keep.id);
      const row = await make(1);

      const field = writable(res).find((f) => f.type === 'TEXT' && !f.createOnly)!;
      const newValue = `Ω ${WORDS[3]} αλλαγή`;
      const p1 = await call(me, 'PATCH', `/api/${res.name}/${row.id}`, { [field.name]: newValue, version: row.version });
      expectStatus(p1, 200);
      expect(Object.keys(json(p1))).toEqual(['data']);
      const updated = json(p1).data;
      expect(updated[field.name]).toBe(newValue);
      expect(updated.version).toBeGreaterThan(row.version);
      expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(row.updated_at));
      expect(updated.created_at).toBe(row.created_at);
      // every other field is unchanged
      for (const def of readable(res)) {
        if (!['version', 'updated_at', field.name].includes(def.name) && !def.readOnly) expect(updated[def.name], def.name).toEqual(row[def.name]);
      }

      expectError(await call(me, 'PATCH', `/api/${res.name}/${row.id}`, { [field.name]: 'Παλιά έκδοση', version: row.version }), 409, 'stale');
      expectError(await call(me, 'PATCH', `/api/${res.name}/${row.id}`, { [field.name]: 'Χωρίς έκδοση' }), 400, 'validation', { version: 'required' });
      expectError(await call(me, 'PATCH', `/api/${res.name}/2147483000`, { [field.name]: 'Κανένα', version: 1 }), 404, 'not-found');
      expectError(await call(me, 'GET', `/api/${res.name}/2147483000`), 404, 'not-found');
      expectError(await call(me, 'DELETE', `/api/${res.name}/2147483000`), 404, 'not-found');
      expect(json(await call(me, 'GET', `/api/${res.name}/${row.id}`)).data).toEqual(updated);

      // another tenant: 404 for read, update and delete, and nothing changes
      const other = asListing();
      expectError(await call(other, 'GET', `/api/${res.name}/${row.id}`), 404, 'not-found');
      expectError(await call(other, 'PATCH', `/api/${res.name}/${row.id}`, { [field.name]: 'Εισβολή', version: updated.version }), 404, 'not-found');
      expectError(await call(other, 'DELETE', `/api/${res.name}/${row.id}`), 404, 'not-found');
      const otherList = json(await call(other, 'GET', `/api/${res.name}?_end=200&id=${row.id}`));
      expect(otherList).toEqual({ data: [], total: 0 });
      expect(json(await call(me, 'GET', `/api/${res.name}/${row.id}`)).data).toEqual(updated);
      // and the listing tenant's rows are invisible here
      const mine = json(await call(me, 'GET', `/api/${res.name}?_end=200`)).data.map((x: Row) => x.id);
      for (const id of listTargets[res.name] ?? []) expect(mine).not.toContain(id);

      const del = await call(me, 'DELETE', `/api/${res.name}/${row.id}`);
      expectStatus(del, 204);
      expect(del.body).toBe('');
      const after = await call(me, 'GET', `/api/${res.name}/${row.id}`);
      if (res.name === 'teachers') {
        // teachers are kept for history and references
        expectStatus(after, 200);
        expect(json(after).data.deleted).toBe(true);
      } else {
        expectError(after, 404, 'not-found');
        expectError(await call(me, 'PATCH', `/api/${res.name}/${row.id}`, { [field.name]: 'Μετά', version: updated.version }), 404, 'not-found');
      }
      const ids = json(await call(me, 'GET', `/api/${res.name}?_end=200`)).data.map((x: Row) => x.id);
      expect(ids).not.toContain(row.id);
      expect(ids).toContain(keep.id);

      const h = await call(me, 'GET', `/api/history?entity=${res.name}&entity_id=${row.id}`);
      expectStatus(h, 200);
      expectNoSecret(h, PASSWORD);
      const entries: Row[] = json(h).data;
      expect(entries.map((e) => e.action).sort(), show(h)).toEqual(['create', 'delete', 'update']);
      for (const e of entries) {
        expect(e.entity_id).toBe(row.id);
        expect(e.user_id ?? e.user?.id).toBe(demo.id);
      }
      const created = entries.find((e) => e.action === 'create')!;
      expect(created.changes[field.name]?.new).toBe(row[field.name]);
      const change = entries.find((e) => e.action === 'update')!;
      expect(change.changes[field.name]).toEqual({ old: row[field.name], new: newValue });
      expect(Object.keys(change.changes)).not.toContain('version');
    });
  });

  const refsOf = (res: ResourceDef) => writable(res).filter((f) => f.type === 'REFERENCE' || f.type === 'REFERENCES');
  describe.each(ORDER.filter((res) => refsOf(res).length > 0).map((res) => ({ name: res.name, res })))('$name references', ({ res }) => {
    it('references to unknown or other-tenant ids are 400 fields.<field> = invalid, and nothing is written', async () => {
      const refs = refsOf(res);
      const me = asDemo();
      const before = json(await call(me, 'GET', `/api/${res.name}?_end=200`)).total;
      const mismatches: string[] = [];
      for (const def of refs) {
        const foreign = (listTargets[def.reference!] ?? [])[0];
        for (const bad of [2147483000, foreign]) {
          const value = def.type === 'REFERENCES' ? [bad] : bad;
          const body = { ...bodyOf(res, 2, demoTargets), [def.name]: value };
          if (res.name === 'teachers') body.username = `refcheck${def.name.replace(/_/g, '')}`;
          const r = await call(me, 'POST', `/api/${res.name}`, body);
          if (r.statusCode !== 400 || json(r).error?.code !== 'validation' || json(r).error?.fields?.[def.name] !== 'invalid') {
            mismatches.push(`POST ${def.name}=${JSON.stringify(value)} -> ${show(r)}`);
          }
          const target = (demoTargets[res.name] ?? [])[0];
          const current = json(await call(me, 'GET', `/api/${res.name}/${target}`)).data;
          const p = await call(me, 'PATCH', `/api/${res.name}/${target}`, { [def.name]: value, version: current.version });
          if (p.statusCode !== 400 || json(p).error?.fields?.[def.name] !== 'invalid')
            mismatches.push(`PATCH ${def.name}=${JSON.stringify(value)} -> ${show(p)}`);
          const now = json(await call(me, 'GET', `/api/${res.name}/${target}`)).data;
          if (JSON.stringify(now) !== JSON.stringify(current)) mismatches.push(`PATCH ${def.name}=${JSON.stringify(value)} changed the row`);
        }
      }
      expect(mismatches).toEqual([]);
      expect(json(await call(me, 'GET', `/api/${res.name}?_end=200`)).total).toBe(before);
    });
  });
});
