// /api/users: list, paging, sorting, filters,
// Greek q search, create, update (POST with id and PATCH), deactivate, uniqueness, role
// rules, self-protection, tenant isolation and the history of every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, json, show } from '../support/api-helpers';

interface Row {
  id: number;
  username: string;
  role: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  status: string;
  version: number;
}

const PASSWORD = 'list-password-1';

/**
 * 400 validation naming the refused list parameter: the contract names the field itself
 * (fields[name]); the lead's domain/fields.ts parseListQuery names `_sort`/`_order` for sorting.
 * Either is accepted, with invalid-option or unknown-field.
 */
function expectBadListField(res: Response, name: string, param?: string) {
  const body = expectError(res, 400, 'validation');
  const fields = body.error.fields ?? {};
  const code = fields[name] ?? (param ? fields[param] : undefined);
  expect(['invalid-option', 'unknown-field'], show(res)).toContain(code);
}

describe.each(DATABASE_KINDS)('/api/users on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;
  let demoAdmin: Awaited<ReturnType<TestApp['createUser']>>;
  let listing: Awaited<ReturnType<TestApp['createTenant']>>;
  const seen: Response[] = [];

  const call = async (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, tenant = 'demo') => {
    const res = await t.request({ method, url, token, body, tenant, clientType: 'api' });
    seen.push(res);
    return res;
  };
  const L = (url: string, body?: unknown) => call(listing.admin.token, body === undefined ? 'GET' : 'POST', url, body, 'listing');
  const list = async (query: string): Promise<{ rows: Row[]; total: number; res: Response }> => {
    const res = await L(`/api/users${query}`);
    expectStatus(res, 200);
    const body = json(res);
    return { rows: body.data, total: body.total, res };
  };
  const names = (rows: Row[]) => rows.map((r) => r.username).sort();

  // The "listing" tenant holds exactly these users plus its first admin.
  const people = [
    { username: 'gpapadopoulos', role: 'SECRETARY', first_name: 'Γιώργος', last_name: 'Παπαδόπουλος', email: 'giorgos@example.gr' },
    { username: 'mnikolaou', role: 'SECRETARY', first_name: 'Μαρία', last_name: 'Νικολάου', email: 'maria@example.gr', phone: '+30 210 1234567' },
    { username: 'aalexiou', role: 'ADMIN', first_name: 'Άννα', last_name: 'Αλεξίου', email: 'anna@example.gr' },
    { username: 'kpappas', role: 'SECRETARY', first_name: 'Κώστας', last_name: 'Παππάς', email: 'kostas@example.com' },
    { username: 'zeleftheriou', role: 'SECRETARY', first_name: 'Ζωή', last_name: 'Ελευθερίου', email: 'zoe@example.com' },
  ];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    demoAdmin = await t.createUser(rootToken, { role: 'ADMIN' });
    listing = await t.createTenant('listing');
    for (const p of people) {
      const res = await L('/api/users', { ...p, password: PASSWORD });
      expect(res.statusCode, show(res)).toBe(201);
      ids[p.username] = json(res).id;
    }
    const del = await call(listing.admin.token, 'DELETE', `/api/users/${ids.kpappas}`, undefined, 'listing');
    expect(del.statusCode, show(del)).toBe(204);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('list', () => {
    it('answers {data, total} with X-Total-Count and rows without passwords', async () => {
      const { rows, total, res } = await list('');
      expect(total).toBe(6);
      expect(res.headers['x-total-count']).toBe('6');
      expect(rows).toHaveLength(6);
      expect(names(rows)).toEqual(['aalexiou', 'admin-listing', 'gpapadopoulos', 'kpappas', 'mnikolaou', 'zeleftheriou']);
      for (const r of rows) {
        expect(Number.isInteger(r.id)).toBe(true);
        expect(Number.isInteger(r.version)).toBe(true);
        expect(r).not.toHaveProperty('password');
        expect(r).not.toHaveProperty('password_hash');
        expect(['ADMIN', 'SECRETARY']).toContain(r.role);
        expect(['ACTIVE', 'INACTIVE']).toContain(r.status);
      }
      const m = rows.find((r) => r.username === 'mnikolaou')!;
      expect(m).toMatchObject({ first_name: 'Μαρία', last_name: 'Νικολάου', email: 'maria@example.gr', phone: '+30 210 1234567', status: 'ACTIVE' });
    });

    it('pages with _start/_end and keeps the total', async () => {
      const all = (await list('?_sort=username&_order=asc')).rows.map((r) => r.username);
      const page = await list('?_sort=username&_order=asc&_start=1&_end=3');
      expect(page.rows.map((r) => r.username)).toEqual(all.slice(1, 3));
      expect(page.total).toBe(6);
      expect(page.res.headers['x-total-count']).toBe('6');
      const tail = await list('?_sort=username&_order=asc&_start=4&_end=25');
      expect(tail.rows.map((r) => r.username)).toEqual(all.slice(4));
      const beyond = await list('?_start=50&_end=60');
      expect(beyond.rows).toEqual([]);
      expect(beyond.total).toBe(6);
      expectStatus(await L('/api/users?_start=0&_end=200'), 200);
    });

    it('refuses pages of more than 200 rows with 400 validation', async () => {
      const body = expectError(await L('/api/users?_start=0&_end=201'), 400, 'validation');
      expect(Object.values(body.error.fields ?? {})).toContain('too-large');
      expectError(await L('/api/users?_start=100&_end=301'), 400, 'validation');
    });

    it('sorts by one or several fields', async () => {
      const asc = (await list('?_sort=username&_order=asc')).rows.map((r) => r.username);
      expect(asc).toEqual(['aalexiou', 'admin-listing', 'gpapadopoulos', 'kpappas', 'mnikolaou', 'zeleftheriou']);
      const desc = (await list('?_sort=username&_order=desc')).rows.map((r) => r.username);
      expect(desc).toEqual([...asc].reverse());
      const multi = (await list('?_sort=role,username&_order=desc,asc')).rows.map((r) => `${r.role}:${r.username}`);
      expect(multi).toEqual([
        'SECRETARY:gpapadopoulos',
        'SECRETARY:kpappas',
        'SECRETARY:mnikolaou',
        'SECRETARY:zeleftheriou',
        'ADMIN:aalexiou',
        'ADMIN:admin-listing',
      ]);
      const byStatus = (await list('?_sort=status,email&_order=desc,asc')).rows.map((r) => r.username);
      expect(byStatus[0]).toBe('kpappas'); // the only INACTIVE one sorts first on status desc
    });

    it('refuses unknown or unsortable sort fields and bad orders', async () => {
      expectBadListField(await L('/api/users?_sort=nosuch&_order=asc'), 'nosuch', '_sort');
      expectBadListField(await L('/api/users?_sort=password&_order=asc'), 'password', '_sort');
      expectBadListField(await L('/api/users?_sort=phone,username&_order=asc,asc'), 'phone', '_sort');
      expectBadListField(await L('/api/users?_sort=username&_order=sideways'), 'sideways', '_order');
    });

    it('filters by role (repeated = in), status, _ne and _like', async () => {
      expect(names((await list('?role=SECRETARY')).rows)).toEqual(['gpapadopoulos', 'kpappas', 'mnikolaou', 'zeleftheriou']);
      const both = await list('?role=ADMIN&role=SECRETARY');
      expect(both.total).toBe(6);
      const inactive = await list('?status=INACTIVE');
      expect(names(inactive.rows)).toEqual(['kpappas']);
      expect(inactive.total).toBe(1);
      expect(inactive.res.headers['x-total-count']).toBe('1');
      expect(names((await list('?role_ne=SECRETARY')).rows)).toEqual(['aalexiou', 'admin-listing']);
      expect(names((await list('?status=ACTIVE&role=SECRETARY')).rows)).toEqual(['gpapadopoulos', 'mnikolaou', 'zeleftheriou']);
      expect(names((await list('?username_like=pap')).rows)).toEqual(['gpapadopoulos', 'kpappas']);
      expect(names((await list('?email_like=example.com')).rows)).toEqual(['kpappas', 'zeleftheriou']);
      expect((await list('?username=nobody')).total).toBe(0);
    });

    it('refuses unknown filter fields and filters on the password', async () => {
      expectBadListField(await L('/api/users?nosuch=1'), 'nosuch');
      expectBadListField(await L('/api/users?password=list-password-1'), 'password');
      expectBadListField(await L('/api/users?password_hash_like=%24argon2'), 'password_hash_like');
      expectBadListField(await L('/api/users?search_like=a'), 'search_like');
      // a value that cannot match the field's type is refused too
      expectError(await L('/api/users?role=JANITOR'), 400, 'validation');
      expectError(await L('/api/users?status=maybe'), 400, 'validation');
    });

    it('q searches names, username and email ignoring case and Greek accents', async () => {
      for (const q of ['παπαδοπουλος', 'ΠΑΠΑΔΟΠΟΥΛΟΣ', 'Παπαδόπουλος', 'παπαδοπουλοσ', 'ΓΙΩΡΓΟΣ', 'γιώργος παπαδόπουλος']) {
        const r = await list(`?q=${encodeURIComponent(q)}`);
        expect(names(r.rows), q).toEqual(['gpapadopoulos']);
        expect(r.total, q).toBe(1);
      }
      expect(names((await list(`?q=${encodeURIComponent('νικολαου')}`)).rows)).toEqual(['mnikolaou']);
      expect(names((await list(`?q=${encodeURIComponent('αννα')}`)).rows)).toEqual(['aalexiou']);
      expect(names((await list(`?q=${encodeURIComponent('ελευθεριου')}`)).rows)).toEqual(['zeleftheriou']);
      expect(names((await list('?q=EXAMPLE.GR')).rows)).toEqual(['aalexiou', 'gpapadopoulos', 'mnikolaou']);
      expect(names((await list('?q=MNIKOL')).rows)).toEqual(['mnikolaou']);
      const none = await list(`?q=${encodeURIComponent('ξξξξ')}`);
      expect(none.rows).toEqual([]);
      expect(none.total).toBe(0);
      // q combines with filters and paging
      const combined = await list(`?q=${encodeURIComponent('παπ')}&status=ACTIVE&_start=0&_end=10`);
      expect(names(combined.rows)).toEqual(['gpapadopoulos']);
    });

    it('another tenant sees only its own users', async () => {
      const res = await call(demoAdmin.token, 'GET', '/api/users?_end=200');
      expectStatus(res, 200);
      const usernames = json(res).data.map((r: Row) => r.username);
      expect(usernames).toContain(demoAdmin.username);
      for (const p of people) expect(usernames).not.toContain(p.username);
      const q = await call(demoAdmin.token, 'GET', `/api/users?q=${encodeURIComponent('νικολαου')}`);
      expect(json(q).total).toBe(0);
    });
  });

  describe('create, read, update, delete', () => {
    const create = (body: Record<string, unknown>, token = demoAdmin.token) => call(token, 'POST', '/api/users', body);
    const total = async () => json(await call(demoAdmin.token, 'GET', '/api/users')).total as number;

    it('POST creates: 201 {id, data} with defaults and no password; GET one answers {data}', async () => {
      const res = await create({
        username: 'newsecretary',
        password: 'secret-password-1',
        role: 'SECRETARY',
        first_name: 'Νίκος',
        last_name: 'Γεωργίου',
        email: 'nikos@example.gr',
      });
      expectStatus(res, 201);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(['data', 'id']);
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.data).toMatchObject({
        id: body.id,
        username: 'newsecretary',
        role: 'SECRETARY',
        first_name: 'Νίκος',
        last_name: 'Γεωργίου',
        email: 'nikos@example.gr',
        status: 'ACTIVE',
      });
      expect(Number.isInteger(body.data.version)).toBe(true);
      expect(body.data).not.toHaveProperty('password');
      expectNoSecret(res, 'secret-password-1');
      const one = await call(demoAdmin.token, 'GET', `/api/users/${body.id}`);
      expectStatus(one, 200);
      expect(Object.keys(json(one))).toEqual(['data']);
      expect(json(one).data).toEqual(body.data);
      // the new account signs in with its password
      const session = await t.signIn('newsecretary', 'secret-password-1');
      expect(session.user).toMatchObject({ id: body.id, role: 'SECRETARY', firstName: 'Νίκος', lastName: 'Γεωργίου' });
    });

    it('refuses invalid creations with field codes and creates nothing', async () => {
      const before = await total();
      const base = { username: 'validuser', password: 'valid-password-1', role: 'SECRETARY', first_name: 'A', last_name: 'B' };
      const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
        [{ ...base, role: 'ROOT' }, { role: 'invalid-option' }],
        [{ ...base, role: 'TEACHER' }, { role: 'invalid-option' }],
        [{ ...base, role: 'JANITOR' }, { role: 'invalid-option' }],
        [{ ...base, password: 'short' }, { password: 'too-short' }],
        [{ ...base, password: 'x'.repeat(129) }, { password: 'too-long' }],
        [{ ...base, username: undefined }, { username: 'required' }],
        [{ ...base, first_name: undefined }, { first_name: 'required' }],
        [{ ...base, email: 'not-an-email' }, { email: 'invalid-format' }],
        [{ ...base, first_name: 42 }, { first_name: 'invalid-type' }],
        [{ ...base, is_superuser: true }, { is_superuser: 'unknown-field' }],
        [{ ...base, first_name: 'x'.repeat(10_240) }, { first_name: 'too-long' }],
      ];
      // every case is tried, and all mismatches are reported together
      const mismatches: string[] = [];
      for (const [body, fields] of cases) {
        const res = await create(body);
        const got = res.statusCode === 400 ? json(res).error : undefined;
        const ok = got?.code === 'validation' && Object.entries(fields).every(([k, v]) => got.fields?.[k] === v);
        if (!ok) mismatches.push(`${JSON.stringify(body).slice(0, 120)} -> expected fields ${JSON.stringify(fields)}, got ${show(res)}`);
      }
      expect(mismatches).toEqual([]);
      expect(await total()).toBe(before);
    });

    it('usernames are unique per tenant, case-insensitively; another tenant may reuse one', async () => {
      const first = await create({ username: 'CaseUser', password: 'case-password-1', role: 'SECRETARY', first_name: 'A', last_name: 'B' });
      expectStatus(first, 201);
      for (const username of ['caseuser', 'CASEUSER', 'CaseUser']) {
        const res = await create({ username, password: 'case-password-2', role: 'ADMIN', first_name: 'C', last_name: 'D' });
        expectError(res, 409, 'conflict', { username: 'taken' });
      }
      const other = await L('/api/users', { username: 'caseuser', password: 'case-password-3', role: 'SECRETARY', first_name: 'E', last_name: 'F' });
      expectStatus(other, 201);
      // renaming a user onto a taken name is refused too
      const u = json(await create({ username: 'renameme', password: 'case-password-4', role: 'SECRETARY', first_name: 'G', last_name: 'H' })).data;
      const res = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { username: 'CASEUSER', version: u.version });
      expectError(res, 409, 'conflict', { username: 'taken' });
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${u.id}`)).data.username).toBe('renameme');
    });

    it('PATCH with the current version updates and bumps it; a stale version is 409 stale and changes nothing', async () => {
      const u = json(await create({ username: 'patchme', password: 'patch-password-1', role: 'SECRETARY', first_name: 'Πέτρος', last_name: 'Ιωάννου' })).data;
      const res = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { first_name: 'Παύλος', phone: '210 555 1234', version: u.version });
      expectStatus(res, 200);
      const updated = json(res).data;
      expect(updated).toMatchObject({ id: u.id, first_name: 'Παύλος', last_name: 'Ιωάννου', phone: '210 555 1234' });
      expect(updated.version).toBeGreaterThan(u.version);
      expect(Object.keys(json(res))).toEqual(['data']);

      const stale = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { first_name: 'Χάρης', version: u.version });
      expectError(stale, 409, 'stale');
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${u.id}`)).data).toEqual(updated);

      expectError(await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { first_name: 'Χάρης' }), 400, 'validation', { version: 'required' });
      expectError(await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { role: 'ROOT', version: updated.version }), 400, 'validation', {
        role: 'invalid-option',
      });
      expectError(await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { role: 'TEACHER', version: updated.version }), 400, 'validation', {
        role: 'invalid-option',
      });
      expectError(await call(demoAdmin.token, 'PATCH', '/api/users/99999999', { first_name: 'Χ', version: 1 }), 404, 'not-found');
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${u.id}`)).data).toEqual(updated);
    });

    it('null clears optional fields only; null for a required or defaulted field is 400', async () => {
      const u = json(
        await create({
          username: 'nullable',
          password: 'null-password-1',
          role: 'SECRETARY',
          first_name: 'Ν',
          last_name: 'Λ',
          email: 'n@example.gr',
          phone: '2101234567',
        }),
      ).data;
      for (const field of ['username', 'password', 'role', 'first_name', 'last_name', 'status']) {
        const res = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { [field]: null, version: u.version });
        expectError(res, 400, 'validation', { [field]: expect.any(String) });
      }
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${u.id}`)).data).toEqual(u);
      const cleared = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { email: null, phone: null, version: u.version });
      expectStatus(cleared, 200);
      expect(json(cleared).data).toMatchObject({ email: null, phone: null, status: 'ACTIVE' });
      // on create, a null status takes the default (or is refused), never a 500
      const created = await create({ username: 'nullstatus', password: 'null-password-2', role: 'SECRETARY', first_name: 'Ν', last_name: 'Σ', status: null });
      if (created.statusCode === 201) expect(json(created).data.status).toBe('ACTIVE');
      else expectError(created, 400, 'validation', { status: expect.any(String) });
    });

    it('concurrent writes: the same new username twice -> one 201 and one 409 taken; the same version twice -> one 200 and one 409 stale', async () => {
      const body = (n: number) => ({ username: 'RaceUser', password: 'race-password-1', role: 'SECRETARY', first_name: `R${n}`, last_name: 'Race' });
      const created = await Promise.all([create(body(1)), create(body(2)), create({ ...body(3), username: 'raceuser' })]);
      const statuses = created.map((r) => r.statusCode).sort();
      expect(statuses, created.map(show).join('\n')).toEqual([201, 409, 409]);
      for (const r of created.filter((x) => x.statusCode === 409)) expectError(r, 409, 'conflict', { username: 'taken' });
      const winner = json(created.find((r) => r.statusCode === 201)!).data;
      const patched = await Promise.all(
        ['Α', 'Β', 'Γ'].map((name) => call(demoAdmin.token, 'PATCH', `/api/users/${winner.id}`, { first_name: name, version: winner.version })),
      );
      expect(patched.map((r) => r.statusCode).sort(), patched.map(show).join('\n')).toEqual([200, 409, 409]);
      for (const r of patched.filter((x) => x.statusCode === 409)) expectError(r, 409, 'stale');
      const ok = json(patched.find((r) => r.statusCode === 200)!).data;
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${winner.id}`)).data).toEqual(ok);
      const h = json(await call(demoAdmin.token, 'GET', `/api/history?entity=users&entity_id=${winner.id}`));
      expect(h.data.map((r: { action: string }) => r.action).sort()).toEqual(['create', 'update']);
    });

    it('POST with an id updates (200 {id, data}), checking the version when given', async () => {
      const u = json(await create({ username: 'postupdate', password: 'post-password-1', role: 'SECRETARY', first_name: 'Άρης', last_name: 'Δήμου' })).data;
      const res = await create({ id: u.id, first_name: 'Αριστείδης', role: 'ADMIN' });
      expectStatus(res, 200);
      const body = json(res);
      expect(body.id).toBe(u.id);
      expect(body.data).toMatchObject({ id: u.id, username: 'postupdate', first_name: 'Αριστείδης', role: 'ADMIN', last_name: 'Δήμου' });
      expect(body.data.version).toBeGreaterThan(u.version);
      expectError(await create({ id: u.id, first_name: 'Stale', version: u.version }), 409, 'stale');
      const again = await create({ id: u.id, last_name: 'Δημητρίου', version: body.data.version });
      expectStatus(again, 200);
      expect(json(again).data.last_name).toBe('Δημητρίου');
      expect(json(again).data.first_name).toBe('Αριστείδης');
      expectError(await create({ id: 99999999, first_name: 'X' }), 404, 'not-found');
    });

    it("a password change through PATCH takes effect and ends the user's sessions", async () => {
      const u = await t.createUser(demoAdmin.token, { role: 'SECRETARY' });
      const row = json(await call(demoAdmin.token, 'GET', `/api/users/${u.id}`)).data;
      const res = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { password: 'changed-password-1', version: row.version });
      expectStatus(res, 200);
      expectNoSecret(res, 'changed-password-1');
      expectStatus(await t.request({ method: 'GET', url: '/me', token: u.token }), 401);
      expect((await t.signIn(u.username, 'changed-password-1')).user.id).toBe(u.id);
      const old = await t.request({ method: 'POST', url: '/login', body: { username: u.username, password: u.password, tenant: 'demo' } });
      expectError(old, 401, 'bad-credentials');
    });

    it('DELETE answers 204, keeps the row as INACTIVE and ends its sessions', async () => {
      const u = await t.createUser(demoAdmin.token, { role: 'SECRETARY' });
      expectStatus(await t.request({ method: 'GET', url: '/me', token: u.token }), 200);
      const res = await call(demoAdmin.token, 'DELETE', `/api/users/${u.id}`);
      expectStatus(res, 204);
      expect(res.body).toBe('');
      const after = await call(demoAdmin.token, 'GET', `/api/users/${u.id}`);
      expectStatus(after, 200);
      expect(json(after).data.status).toBe('INACTIVE');
      expectStatus(await t.request({ method: 'GET', url: '/me', token: u.token }), 401);
      const inactive = json(await call(demoAdmin.token, 'GET', `/api/users?status=INACTIVE&username=${u.username}`));
      expect(inactive.total).toBe(1);
      expectError(await call(demoAdmin.token, 'DELETE', '/api/users/99999999'), 404, 'not-found');
      expectError(await call(demoAdmin.token, 'GET', '/api/users/99999999'), 404, 'not-found');
    });

    it('nobody may deactivate or change the role of their own account (409 conflict)', async () => {
      const me = json(await call(demoAdmin.token, 'GET', `/api/users/${demoAdmin.id}`)).data;
      expectError(await call(demoAdmin.token, 'DELETE', `/api/users/${demoAdmin.id}`), 409, 'conflict');
      expectError(await call(demoAdmin.token, 'PATCH', `/api/users/${demoAdmin.id}`, { role: 'SECRETARY', version: me.version }), 409, 'conflict');
      expectError(await call(demoAdmin.token, 'PATCH', `/api/users/${demoAdmin.id}`, { status: 'INACTIVE', version: me.version }), 409, 'conflict');
      expectError(await create({ id: demoAdmin.id, role: 'SECRETARY' }), 409, 'conflict');
      expectError(await create({ id: demoAdmin.id, status: 'INACTIVE' }), 409, 'conflict');
      expect(json(await call(demoAdmin.token, 'GET', `/api/users/${demoAdmin.id}`)).data).toEqual(me);
      expectStatus(await call(demoAdmin.token, 'GET', '/me'), 200);
    });

    it("another tenant's user id answers 404 for read, update and delete, and nothing changes", async () => {
      const victimId = ids.mnikolaou; // lives in "listing"
      const before = json(await L(`/api/users/${victimId}`)).data;
      const d = demoAdmin.token;
      expectError(await call(d, 'GET', `/api/users/${victimId}`), 404, 'not-found');
      expectError(await call(d, 'PATCH', `/api/users/${victimId}`, { first_name: 'Hacked', version: before.version }), 404, 'not-found');
      expectError(await call(d, 'POST', '/api/users', { id: victimId, first_name: 'Hacked' }), 404, 'not-found');
      expectError(await call(d, 'DELETE', `/api/users/${victimId}`), 404, 'not-found');
      // history of another tenant's row: nothing leaks (an empty list or 404)
      const h = await call(d, 'GET', `/api/history?entity=users&entity_id=${victimId}`);
      if (h.statusCode === 200) expect(json(h).data).toEqual([]);
      else expectError(h, 404, 'not-found');
      expect(json(await L(`/api/users/${victimId}`)).data).toEqual(before);
      const session = await t.signIn('mnikolaou', PASSWORD, 'listing');
      expect(session.user.firstName).toBe('Μαρία');
    });
  });

  describe('history', () => {
    it('records create, update and delete with who and what, password redacted', async () => {
      const res = await call(demoAdmin.token, 'POST', '/api/users', {
        username: 'historied',
        password: 'history-password-1',
        role: 'SECRETARY',
        first_name: 'Ιστορία',
        last_name: 'Πρώτη',
      });
      expectStatus(res, 201);
      const u = json(res).data;
      const p1 = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { first_name: 'Ιστορίας', version: u.version });
      expectStatus(p1, 200);
      const p2 = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { password: 'history-password-2', version: json(p1).data.version });
      expectStatus(p2, 200);
      expectStatus(await call(demoAdmin.token, 'DELETE', `/api/users/${u.id}`), 204);

      const h = await call(demoAdmin.token, 'GET', `/api/history?entity=users&entity_id=${u.id}`);
      expectStatus(h, 200);
      expectNoSecret(h, 'history-password-1', 'history-password-2');
      const body = json(h);
      expect(Array.isArray(body.data), show(h)).toBe(true);
      const rows = body.data as Array<Record<string, any>>;
      expect(rows).toHaveLength(4);
      expect(rows.map((r) => r.action).sort()).toEqual(['create', 'delete', 'update', 'update']);
      for (const r of rows) {
        expect(r.entity).toBe('users');
        expect(r.entity_id).toBe(u.id);
        expect(Number.isNaN(Date.parse(r.at))).toBe(false);
        expect(typeof r.changes).toBe('object');
        // who: user_id/user_name (or a user {id, name} label)
        expect(r.user_id ?? r.user?.id, JSON.stringify(r)).toBe(demoAdmin.id);
      }
      const created = rows.find((r) => r.action === 'create')!;
      expect(created.changes.username?.new).toBe('historied');
      const renamed = rows.find((r) => r.action === 'update' && r.changes.first_name)!;
      expect(renamed.changes.first_name).toEqual({ old: 'Ιστορία', new: 'Ιστορίας' });
      const passwordRow = rows.find((r) => r.action === 'update' && !r.changes.first_name)!;
      expect(passwordRow.changes).toHaveProperty('password');
      const deleted = rows.find((r) => r.action === 'delete')!;
      if (deleted.changes.status !== undefined) expect(deleted.changes.status).toEqual({ old: 'ACTIVE', new: 'INACTIVE' });

      // a refused write records nothing
      const stale = await call(demoAdmin.token, 'PATCH', `/api/users/${u.id}`, { first_name: 'Never', version: u.version });
      expectError(stale, 409, 'stale');
      const h2 = json(await call(demoAdmin.token, 'GET', `/api/history?entity=users&entity_id=${u.id}`));
      expect(h2.data).toHaveLength(4);
    });
  });

  it('no answer of this block contained a password hash or a plain password', () => {
    expect(seen.length).toBeGreaterThan(30);
    for (const res of seen) expectNoSecret(res, PASSWORD, 'secret-password-1', 'history-password-1', 'history-password-2');
  });
});
