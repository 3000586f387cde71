// `npm test`: the whole suite, exactly what CI runs (docs/testing.md). Lint and the dead-export
// check first (seconds, and the commonest failure); then the typecheck beside the build (client and server); then vitest, as two runs
// side by side: the unit and API projects in one, the browser project in the other. A browser
// file spends much of its time waiting on Chromium and on its one server, leaving a core idle
// that the API files fill; the API run has the lower priority (nice), so what a page draws is
// not slowed by it. Each line of a run's output starts with its name. Extra arguments
// (`npm test -- tests/api/users/users.test.ts`) go to a single `vitest run` instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** Runs `command`; with a `label`, each line it prints is prefixed with it. Answers its exit code. */
function run(command, args, { label, nice } = {}) {
  const [file, argv] = nice ? ['nice', ['-n', String(nice), command, ...args]] : [command, args];
  const child = spawn(file, argv, { cwd: ROOT, stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'] });
  if (label) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        if (lines.length > 0) out.write(lines.map((line) => `[${label}] ${line}\n`).join(''));
      });
      stream.on('end', () => rest && out.write(`[${label}] ${rest}\n`));
    }
  }
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const step = async (...runs) => {
  const codes = await Promise.all(runs);
  if (codes.some((code) => code !== 0)) process.exit(1);
};

const extra = process.argv.slice(2);
// Lint and format (Biome) beside the check that every export is used somewhere (knip.json).
await step(run(bin('biome'), ['check', '.']), run(bin('knip'), ['--include', 'exports,types']));
// The build is `npm run build`'s: the client, and the compiled server that the tests which
// start Frontis as a process of its own run, as `npm start` does.
await step(
  run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { label: 'types' }),
  run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--logLevel', 'warn'], { label: 'build' }),
);
if (extra.length > 0) await step(run(bin('vitest'), ['run', ...extra]));
else
  await step(
    run(bin('vitest'), ['run', '--project', 'unit', '--project', 'api'], { label: 'api', nice: 10 }),
    run(bin('vitest'), ['run', '--project', 'e2e'], { label: 'e2e' }),
  );
