// kill -9 of the server in the middle of writes on the embedded database, three times on the
// same DATA_DIR: after each restart every write the server acknowledged (201) is there, and
// the lock the killed process left behind does not keep the new one from starting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allNames, call, ROOT, signIn, sleep, startFrontis } from '../../../bench/frontis-process';

const TRIALS = 3;

describe('kill -9 on PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-kill-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(`keeps every acknowledged write over ${TRIALS} kills`, async () => {
    const acknowledged: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const frontis = await startFrontis({ DATA_DIR: dataDir });
      const { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
      const before = await allNames(frontis.base, token, 'subjects');
      expect(
        acknowledged.filter((n) => !before.has(n)),
        `after kill ${trial}`,
      ).toEqual([]);

      let stop = false;
      let n = 0;
      const writer = async (w: number) => {
        while (!stop && n < 400) {
          const name = `Μάθημα ${trial}-${w}-${n++}`;
          const res = await call(frontis.base, 'POST', '/api/subjects', { token, body: { name } });
          if (res.status === 201) acknowledged.push(name);
        }
      };
      const writers = Promise.all([0, 1, 2].map(writer));
      await sleep(1000 + trial * 700);
      await frontis.kill9();
      stop = true;
      await writers;
      expect(await frontis.exited).toBe('SIGKILL');
    }

    const frontis = await startFrontis({ DATA_DIR: dataDir });
    try {
      const { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
      const names = await allNames(frontis.base, token, 'subjects');
      expect(acknowledged.filter((n) => !names.has(n))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(TRIALS * 5);
    } finally {
      await frontis.stop();
    }
  }, 240_000);
});
