// Compiles the server (server/ and the domain/ code it imports) into dist-server/main.js, so
// `npm start` runs plain JavaScript: no TypeScript is transpiled while the process starts.
// Packages stay imports of node_modules; the database migrations are copied beside the file,
// where the compiled code looks for them (next to itself, as the sources do).
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist-server`;

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts'],
  outfile: `${out}/main.js`,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync(`${root}server/db/migrations`, `${out}/migrations`, { recursive: true });
