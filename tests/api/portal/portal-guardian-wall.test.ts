// A guardian's sign-in reaches nothing of the centre's: every route the server registers (read
// from its own route table, so a route added later is walked too) is called with every method
// as a signed-in GUARDIAN, with ids of real rows (her own child's and her own among them), and
// answers 403 `forbidden`, except the few that are hers or public, listed below with why.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, routeTable, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, fresh, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

const PASSWORD = 'mother-password-1';

/**
 * Routes a GUARDIAN may call, by method and path template, and what she gets there. `skip`:
 * not called here (the live stream never ends by itself; sign-out would end her session).
 */
const ALLOWED: Array<{ route: RegExp; why: string; skip?: boolean; status?: number }> = [
  // public: the session protocol, health, the invitation page's calls, the API's description, a teacher's secret calendar link
  { route: /^POST \/login$/, why: 'public sign-in' },
  { route: /^POST \/refresh-token$/, why: 'public session protocol' },
  { route: /^POST \/sign-out$/, why: 'public session protocol', skip: true },
  { route: /^GET \/healthz$/, why: 'public health check' },
  { route: /^GET \/metrics$/, why: 'the scraper’s, behind METRICS_TOKEN rather than a session (404 where none is set)', status: 404 },
  { route: /^(GET|POST) \/api\/invitation$/, why: 'public invitation page' },
  { route: /^GET \/api\/docs(\/.*)?$/, why: 'public API description' },
  { route: /^GET \/ical\/:file$/, why: 'public secret calendar link (404 without a real secret)', status: 404 },
  // the SMS provider's delivery reports: no session, believed only when signed (tests/api/messages/sms.test.ts)
  { route: /^POST \/api\/messages\/sms-status\/:[a-z_]+$/, why: 'the SMS provider’s signed callback', skip: true },
  // her own: her session, her account and password, her notifications and their stream, the portal
  { route: /^GET \/me$/, why: 'her session', status: 200 },
  // (her account is read here; her names and contact details are changed in the portal)
  { route: /^GET \/api\/mydata$/, why: 'her own account' },
  { route: /^POST \/api\/mydata\/password$/, why: 'her own password' },
  { route: /^GET \/api\/mydata\/calendar-feed$/, why: 'a teacher’s own calendar link: she has none, 404', status: 404 },
  { route: /^GET \/api\/notifications$/, why: 'her own notifications', status: 200 },
  { route: /^GET \/api\/notifications\/stream$/, why: 'her own live notifications', skip: true },
  { route: /^POST \/api\/notifications\/(read-all|:id\/read)$/, why: 'her own notifications' },
  { route: /^[A-Z]+ \/api\/portal(\/.*)?$/, why: 'the portal: her own children, narrowed there and in the database' },
];

describe.each(DATABASE_KINDS)('a GUARDIAN is walled off from the centre’s routes on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let token: string;
  let child: Row;
  let guardian: Row;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, classes: 1, subjects: 1, rooms: 1 });
    const tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id;
    child = created(await w.secretary('POST', '/api/students', { first_name: 'Νίκος', last_name: 'Αλεξίου', class_ids: [w.classes[0]!.id] }));
    const email = `${fresh('mitera')}@example.gr`;
    guardian = created(
      await w.secretary('POST', '/api/guardians', { first_name: 'Θεοδώρα', last_name: 'Αλεξίου', email, portal: true, student_ids: [child.id] }),
    );
    const [mail] = await withTenant(t.database, tenantId, (tx) =>
      queryRows<{ body: string }>(tx, sql`select body from outbox where tenant_id = ${tenantId} and guardian_id = ${guardian.id} order by id desc`),
    );
    const link = /\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mail!.body)![1]!;
    const accepted = await t.request({ method: 'POST', url: '/api/invitation', body: { token: link, password: PASSWORD } });
    expect(accepted.statusCode, show(accepted)).toBe(204);
    token = (await t.signIn(email, PASSWORD)).token;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gets 403 on every staff route, with every method and real ids', { timeout: 300_000 }, async () => {
    const routes = routeTable(t.app);
    // The walk reads the route table: these must be among what it found.
    for (const known of ['GET /api/students/:id', 'GET /api/history', 'GET /api/receipts/:id/pdf', 'PUT /api/lessons/:id/attendance', 'GET /api/users']) {
      expect(routes.map((r) => `${r.method} ${r.path}`)).toContain(known);
    }
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const { method, path } of routes) {
      const key = `${method} ${path}`;
      const rule = ALLOWED.find((a) => a.route.test(key));
      // Her own child's id and her own guardian id: ids she might guess first.
      for (const id of rule ? [guardian.id] : [child.id, guardian.id]) {
        const url = path
          .replace(/:id\b/g, String(id))
          .replace(/:[a-z_]+/g, 'x')
          .replace(/\*/g, 'x');
        if (rule?.skip) continue;
        const res = await t.request({ method: method as 'GET', url, token, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        if (rule) {
          expect(res.statusCode, `${key} (${rule.why}): ${show(res)}`).toBeLessThan(500);
          expect(res.statusCode, `${key} (${rule.why}): ${show(res)}`).not.toBe(403);
          if (rule.status) expect(res.statusCode, `${key}: ${show(res)}`).toBe(rule.status);
          allowed.push(key);
          continue;
        }
        expect(res.statusCode, `${key} as GUARDIAN: ${show(res)}`).toBe(403);
        expect(json(res).error.code).toBe('forbidden');
        refused.push(key);
      }
    }
    // The walk refused the centre's routes by the dozen, and let her own through.
    expect(new Set(refused).size).toBeGreaterThan(100);
    expect(allowed).toContain('GET /me');
    expect(allowed).toContain('GET /api/mydata');
  });

  it('keeps her own session, account and notifications', async () => {
    const me = ok(await t.request({ url: '/me', token }));
    expect(me.user).toMatchObject({ role: 'GUARDIAN', firstName: 'Θεοδώρα' });
    const mine = ok(await t.request({ url: '/api/mydata', token }));
    expect(mine).toMatchObject({ role: 'GUARDIAN', username: guardian.email });
    expect((await t.request({ url: '/api/notifications', token })).statusCode).toBe(200);
  });

  it('changes her names and address in the portal, not through the staff’s account page', async () => {
    const before = ok(await t.request({ url: '/api/mydata', token }));
    const refused = await t.request({
      method: 'PATCH',
      url: '/api/mydata',
      token,
      body: { first_name: 'Άλλη', email: 'allo@example.gr', version: before.version },
    });
    expect(refused.statusCode, show(refused)).toBe(403);
    expect(json(refused).error.code).toBe('forbidden');
    expect(ok(await t.request({ url: '/api/mydata', token }))).toMatchObject({ first_name: before.first_name, email: before.email, version: before.version });
  });

  it('is refused the history of her own child, her own guardian row and her own sign-in', async () => {
    const myId = ok(await t.request({ url: '/me', token })).user.id;
    for (const url of [
      `/api/history?entity=students&entity_id=${child.id}`,
      `/api/history?entity=guardians&entity_id=${guardian.id}`,
      `/api/history?entity=portal-invitations&entity_id=${guardian.id}`,
      `/api/history?entity=users&entity_id=${myId}`,
      `/api/history?entity=notifications&entity_id=1`,
    ]) {
      const res = await t.request({ url, token });
      expect(res.statusCode, `${url}: ${show(res)}`).toBe(403);
    }
  });
});
