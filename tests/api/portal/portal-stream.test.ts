// A guardian's live notifications over real HTTP: her stream tells her at once of her own
// child's absence, and carries nothing of another family's (whose guardian hears of hers on
// her own stream). Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { openStream } from '../support/notification-stream';
import { type Families, makeFamilies, mark } from '../support/portal-helpers';

describe.each(DATABASE_KINDS)('a guardian’s notification stream on %s', (kind) => {
  let t: TestApp;
  let f: Families;
  let base: string;

  beforeAll(async () => {
    t = await startApp(kind);
    f = await makeFamilies(t, '2026-11-02', '2027-01-11');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('hears her own child’s absence, and nothing of another family’s', async () => {
    const [gA] = f.a.guardians;
    const [gB] = f.b.guardians;
    const [, a2] = f.a.children;
    const [b1] = f.b.children;
    const [l0, , l1] = f.a.lessons;
    const streamA = await openStream(base, f.world.tenant, gA!.token);
    const streamB = await openStream(base, f.world.tenant, gB!.token);
    try {
      expect(streamA.res.status).toBe(200);
      const unreadA = (await streamA.next()).data.unread;
      const unreadB = (await streamB.next()).data.unread;

      // B's child is marked absent: B hears of it ...
      await mark(f.world, l0!.id, [{ student_id: Number(b1!.id), status: 'ABSENT' }]);
      const ofB = await streamB.until(unreadB + 1);
      expect(ofB.data.latest).toMatchObject({ kind: 'child-absent', link: `/portal/attendance?child=${b1!.id}` });

      // ... and the next thing A's stream says is about her own child, one more unread
      await mark(f.world, l1!.id, [{ student_id: Number(a2!.id), status: 'ABSENT' }]);
      const ofA = await streamA.next();
      expect(ofA.data.unread).toBe(unreadA + 1);
      expect(ofA.data.latest).toMatchObject({ kind: 'child-absent', link: `/portal/attendance?child=${a2!.id}` });
      expect(JSON.stringify(ofA.data)).not.toContain(String(b1!.last_name));
    } finally {
      streamA.close();
      streamB.close();
    }
  });
});
