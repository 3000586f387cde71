import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // In one run the projects go one after the other (groupOrder): unit, then api, then e2e.
      // npm test runs e2e in a run of its own beside the other two (scripts/test.mjs).
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          // Two files at a time even on two cores (vitest's default is one fewer than the
          // cores): most of an API file's time is spent waiting on PostgreSQL or on child
          // processes, not on this process's CPU.
          maxWorkers: 2,
          // A worker keeps the server's modules from one file to the next instead of loading
          // them again for each (about half of an API file's time on two cores). Every file
          // builds its own apps on its own databases; what the server keeps in a module is
          // keyed so that two apps in one process (as both engines in one file already are) keep apart.
          isolate: false,
          sequence: { groupOrder: 1 },
          setupFiles: ['tests/api/support/fast-check-seed.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // What a page shows is awaited as long as Playwright waits for an element (browser.ts:
          // 15 s), not vitest's 1 s: on a busy machine an answer can take longer to be drawn.
          expect: { poll: { timeout: 15_000 } },
          // One file at a time: the files share their server's data (global-setup.ts starts one
          // server per worker, tests/e2e/server.ts picks a file's own). Two at a time, each with
          // its own server, took 13.5 to 16 minutes where one took 17 on a slow two-core machine,
          // and made the tests' waits twice as tight: not worth it.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
