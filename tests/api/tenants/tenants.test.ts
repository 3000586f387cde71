// /api/tenants (ROOT only; CONTRACT "Tenants"): create with the first
// admin, slug rules, update with version, deactivate and what that does to sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, json, show } from '../support/api-helpers';

const ADMIN_PASSWORD = 'first-admin-pass-1';

describe.each(DATABASE_KINDS)('/api/tenants on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;

  const root = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: rootToken, clientType: 'api' });
  const tenantBody = (slug: string, extra: Record<string, unknown> = {}) => ({
    slug,
    name: `Φροντιστήριο ${slug}`,
    admin: { username: `boss-${slug}`, password: ADMIN_PASSWORD, first_name: 'Δήμητρα', last_name: 'Κωνσταντίνου' },
    ...extra,
  });
  const login = (username: string, password: string, tenant: string) =>
    t.request({ method: 'POST', url: '/login', tenant, clientType: 'api', body: { username, password, tenant } });
  const tenantCount = async () => json(await root('GET', '/api/tenants')).total as number;

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a tenant with its first ADMIN, who signs in on that tenant only', async () => {
    const res = await root('POST', '/api/tenants', tenantBody('acme'));
    expectStatus(res, 201);
    expectNoSecret(res, ADMIN_PASSWORD);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['data', 'id']);
    expect(body.data).toMatchObject({
      id: body.id,
      slug: 'acme',
      name: 'Φροντιστήριο acme',
      status: 'ACTIVE',
      time_zone: 'Europe/Athens',
      language: 'el',
    });
    expect(Number.isInteger(body.data.version)).toBe(true);

    const ok = await login('boss-acme', ADMIN_PASSWORD, 'acme');
    expectStatus(ok, 200);
    expect(json(ok).user).toMatchObject({ username: 'boss-acme', role: 'ADMIN', firstName: 'Δήμητρα', lastName: 'Κωνσταντίνου' });
    // the admin belongs to acme: the demo host does not know it
    expectError(await login('boss-acme', ADMIN_PASSWORD, 'demo'), 401, 'bad-credentials');
    // and it manages acme's users, not demo's
    const users = await t.request({ method: 'GET', url: '/api/users', tenant: 'acme', token: json(ok).token });
    expectStatus(users, 200);
    expect(json(users).data.map((u: { username: string }) => u.username)).toEqual(['boss-acme']);
    // it cannot touch tenants
    expectError(await t.request({ method: 'GET', url: '/api/tenants', tenant: 'acme', token: json(ok).token }), 403, 'forbidden');
  });

  it('takes time_zone and language, lists and reads tenants', async () => {
    const res = await root('POST', '/api/tenants', tenantBody('london-centre', { time_zone: 'Europe/London', language: 'en' }));
    expectStatus(res, 201);
    expect(json(res).data).toMatchObject({ time_zone: 'Europe/London', language: 'en' });
    const list = await root('GET', '/api/tenants?_sort=slug&_order=asc');
    expectStatus(list, 200);
    expectNoSecret(list, ADMIN_PASSWORD);
    const body = json(list);
    const slugs = body.data.map((r: { slug: string }) => r.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(['demo', 'acme', 'london-centre']));
    expect(body.total).toBe(slugs.length);
    expect(list.headers['x-total-count']).toBe(String(body.total));
    const one = await root('GET', `/api/tenants/${json(res).id}`);
    expectStatus(one, 200);
    expect(json(one).data).toEqual(json(res).data);
    expectError(await root('GET', '/api/tenants/99999999'), 404, 'not-found');
    const q = json(await root('GET', `/api/tenants?q=${encodeURIComponent('ΦΡΟΝΤΙΣΤΗΡΙΟ LONDON')}`));
    expect(q.data.map((r: { slug: string }) => r.slug)).toEqual(['london-centre']);
  });

  it('validates the slug ([a-z0-9-]{1,63}) and the rest of the body, creating nothing', async () => {
    const before = await tenantCount();
    for (const slug of ['Acme', 'a_b', 'a b', '', 'x'.repeat(64), 'καφέ', 'a.b', 'a/b', "a'b", 'ab;drop']) {
      expectError(await root('POST', '/api/tenants', tenantBody(slug)), 400, 'validation', { slug: expect.any(String) });
    }
    expectError(await root('POST', '/api/tenants', { ...tenantBody('noadmin'), admin: undefined }), 400, 'validation');
    expectError(
      await root('POST', '/api/tenants', { ...tenantBody('badadmin'), admin: { username: 'x1x', password: 'short', first_name: 'A', last_name: 'B' } }),
      400,
      'validation',
    );
    expectError(await root('POST', '/api/tenants', tenantBody('badzone', { time_zone: 'Mars/Olympus' })), 400, 'validation', { time_zone: 'invalid-option' });
    expectError(await root('POST', '/api/tenants', tenantBody('badlang', { language: 'fr' })), 400, 'validation', { language: 'invalid-option' });
    expectError(await root('POST', '/api/tenants', tenantBody('extra', { owner: 'me' })), 400, 'validation', { owner: 'unknown-field' });
    expectError(await root('POST', '/api/tenants', { ...tenantBody('noname'), name: undefined }), 400, 'validation', { name: 'required' });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 0, maxLength: 80 }).filter((s) => !/^[a-z0-9-]{1,63}$/.test(s)),
        async (slug) => {
          const res = await root('POST', '/api/tenants', tenantBody(slug));
          expect(res.statusCode, show(res)).toBe(400);
          expect(json(res).error.code).toBe('validation');
          expect(json(res).error.fields).toHaveProperty('slug');
        },
      ),
      { numRuns: 30 },
    );
    expect(await tenantCount()).toBe(before);
    expectError(await login('boss-noname', ADMIN_PASSWORD, 'noname'), 401, 'bad-credentials');
  });

  it('accepts a 63-character slug and a one-character one', async () => {
    const long = `a${'-b'.repeat(30)}cd`; // 63 characters
    expect(long).toHaveLength(63);
    const withAdmin = (slug: string, username: string) => ({
      ...tenantBody(slug),
      admin: { username, password: ADMIN_PASSWORD, first_name: 'Α', last_name: 'Β' },
    });
    expectStatus(await root('POST', '/api/tenants', withAdmin(long, 'boss-long')), 201);
    expectStatus(await root('POST', '/api/tenants', withAdmin('7', 'boss-seven')), 201);
    expectStatus(await login('boss-long', ADMIN_PASSWORD, long), 200);
  });

  it('a taken slug answers 409 conflict fields.slug taken', async () => {
    const before = await tenantCount();
    expectError(await root('POST', '/api/tenants', tenantBody('demo')), 409, 'conflict', { slug: 'taken' });
    expectError(await root('POST', '/api/tenants', tenantBody('acme')), 409, 'conflict', { slug: 'taken' });
    expect(await tenantCount()).toBe(before);
  });

  it('updates with the version; stale -> 409 stale; the slug never changes', async () => {
    const created = json(await root('POST', '/api/tenants', tenantBody('rename-me')));
    const res = await root('PATCH', `/api/tenants/${created.id}`, { name: 'Νέο όνομα', language: 'en', version: created.data.version });
    expectStatus(res, 200);
    const updated = json(res).data;
    expect(updated).toMatchObject({ slug: 'rename-me', name: 'Νέο όνομα', language: 'en' });
    expect(updated.version).toBeGreaterThan(created.data.version);
    expectError(await root('PATCH', `/api/tenants/${created.id}`, { name: 'Stale', version: created.data.version }), 409, 'stale');
    const slugChange = await root('PATCH', `/api/tenants/${created.id}`, { slug: 'renamed', version: updated.version });
    expectError(slugChange, 400, 'validation', { slug: expect.any(String) });
    expectError(await root('PATCH', `/api/tenants/${created.id}`, { name: 'No version' }), 400, 'validation', { version: 'required' });
    expectError(await root('PATCH', '/api/tenants/99999999', { name: 'X', version: 1 }), 404, 'not-found');
    expect(json(await root('GET', `/api/tenants/${created.id}`)).data).toEqual(updated);
    // the admin still signs in on the unchanged slug
    expectStatus(await login('boss-rename-me', ADMIN_PASSWORD, 'rename-me'), 200);
  });

  it('DELETE deactivates: sign-in answers 403 tenant-inactive and live sessions end', async () => {
    const created = json(await root('POST', '/api/tenants', tenantBody('closing')));
    const session = json(await login('boss-closing', ADMIN_PASSWORD, 'closing'));
    expectStatus(await t.request({ method: 'GET', url: '/me', tenant: 'closing', token: session.token }), 200);

    const del = await root('DELETE', `/api/tenants/${created.id}`);
    expectStatus(del, 204);
    const after = json(await root('GET', `/api/tenants/${created.id}`)).data;
    expect(after.status).toBe('INACTIVE');

    expectError(await login('boss-closing', ADMIN_PASSWORD, 'closing'), 403, 'tenant-inactive');
    expectStatus(await t.request({ method: 'GET', url: '/me', tenant: 'closing', token: session.token }), 401);
    const refresh = await t.request({ method: 'POST', url: '/refresh-token', tenant: 'closing', body: { refresh_token: session.refresh_token } });
    expectStatus(refresh, 401);
    // a wrong password on an inactive tenant does not reveal more than bad credentials or inactive
    const wrong = await login('boss-closing', 'wrong-password-1', 'closing');
    expect([401, 403]).toContain(wrong.statusCode);

    // reactivating lets the admin in again
    const re = await root('PATCH', `/api/tenants/${created.id}`, { status: 'ACTIVE', version: after.version });
    expectStatus(re, 200);
    expectStatus(await login('boss-closing', ADMIN_PASSWORD, 'closing'), 200);
    expectError(await root('DELETE', '/api/tenants/99999999'), 404, 'not-found');
  });
});
