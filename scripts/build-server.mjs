// Compiles the server (server/ and the domain/ code it imports) into dist-server/main.js, so
// `npm start` runs plain JavaScript: no TypeScript is transpiled while the process starts.
// Packages stay imports of node_modules; the database migrations are copied beside the file,
// where the compiled code looks for them (next to itself, as the sources do).
// A production install has no dev dependencies (`npm ci --omit=dev`), so every package the
// compiled server imports must be a dependency: the build fails, naming it, when one is not.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist-server`;

rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
  absWorkingDir: root,
  // main.js is the server; restore.js is `npm run restore` for a tree without the sources.
  entryPoints: ['server/main.ts', 'server/restore.ts'],
  outdir: out,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
});
cpSync(`${root}server/db/migrations`, `${out}/migrations`, { recursive: true });

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const { dependencies = {} } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const imported = new Set(
  Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !i.path.startsWith('node:') && !i.path.startsWith('.') && !builtinModules.includes(packageOf(i.path)))
    .map((i) => packageOf(i.path)),
);
const missing = [...imported].filter((name) => !(name in dependencies)).sort();
if (missing.length > 0) {
  console.error(
    `the compiled server imports packages that are not in package.json's dependencies (a production install would lack them): ${missing.join(', ')}`,
  );
  process.exit(1);
}
