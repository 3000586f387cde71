// The PostgreSQL server going away under load: every backend of Frontis's database killed,
// then the database refusing connections for a few seconds. Frontis (a real child process)
// must survive, answer 503 `unavailable` with Retry-After meanwhile (never 500), come back on
// its own, and keep every write it acknowledged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allNames, call, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis } from '../../../bench/frontis-process';

describe('PostgreSQL outage under load', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let frontis: FrontisProcess;
  let token: string;

  beforeAll(async () => {
    db = await scratchDatabase();
    frontis = await startFrontis({ DATABASE_URL: db.url });
    token = (await signIn(frontis.base, ROOT.username, ROOT.password)).token;
  });

  afterAll(async () => {
    await frontis?.stop();
    await db?.drop();
  });

  const terminateAll = () =>
    db.admin('select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db.name]);

  it('survives, answers 503 then success, and loses no acknowledged write', async () => {
    const statuses = new Map<number, number>();
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const deadline = Date.now() + 40_000;
    const worker = async (w: number) => {
      while (!stop && Date.now() < deadline && n < 3000) {
        const i = n++;
        const res =
          i % 2 === 0
            ? await call(frontis.base, 'POST', '/api/subjects', { token, body: { name: `Μάθημα ${w}-${i}` } })
            : await call(frontis.base, 'GET', '/api/subjects?_start=0&_end=10', { token });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.push(`Μάθημα ${w}-${i}`);
        if (res.status === 503) {
          expect(res.body.error.code).toBe('unavailable');
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          await sleep(100);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));

    await sleep(1000);
    await terminateAll();
    await sleep(1500);

    await db.admin(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
    await terminateAll();
    await sleep(1000);
    const health = await call(frontis.base, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBeTruthy();
    const during = await call(frontis.base, 'GET', '/api/subjects', { token });
    expect(during.status).toBe(503);
    expect(during.body.error.code).toBe('unavailable');
    await sleep(2000);
    await db.admin(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);

    // Back on its own within seconds.
    const back = Date.now();
    let healthy = false;
    while (!healthy && Date.now() - back < 15_000) {
      healthy = (await call(frontis.base, 'GET', '/healthz')).status === 200;
      if (!healthy) await sleep(200);
    }
    expect(healthy, frontis.output()).toBe(true);
    await sleep(1500);
    stop = true;
    await load;

    expect(frontis.alive(), frontis.output()).toBe(true);
    const seen = Object.fromEntries(statuses);
    expect(Object.keys(seen).sort(), JSON.stringify(seen)).toEqual(expect.arrayContaining(['200', '201', '503']));
    for (const status of statuses.keys()) expect([200, 201, 503], JSON.stringify(seen)).toContain(status);

    const after = await call(frontis.base, 'POST', '/api/subjects', { token, body: { name: 'Μετά τη διακοπή' } });
    expect(after.status).toBe(201);
    const names = await allNames(frontis.base, token, 'subjects');
    const lost = acknowledged.filter((name) => !names.has(name));
    expect(lost, `acknowledged ${acknowledged.length}`).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);
  }, 90_000);
});
