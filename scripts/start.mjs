// `npm start`: build only when there is no build or it was made from other sources than the
// ones here, then run the compiled server (dist-server/main.js) in this process.
//
// Three kinds of tree:
// - a development checkout (sources and build tools): build when missing or stale, else start
//   at once;
// - a production install (`npm prune --omit=dev` after `npm run build`): the build tools (vite)
//   are dev dependencies and absent, so nothing is ever rebuilt here; a stale build is started
//   with a warning, a missing one is refused with what to do;
// - a tree holding only the build (dist/, dist-server/, package*.json and scripts/, copied from
//   where it was built): there are no sources to compare with, so the build is started as it is.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildPresent, hasSources, inputsHash, readStamp, ROOT } from './build-stamp.mjs';

const say = (line) => console.log(`[start] ${line}`);

/** The package.json of vite when the build tools are installed, else undefined. */
function buildTools() {
  try {
    return createRequire(import.meta.url).resolve('vite/package.json');
  } catch {
    return undefined;
  }
}

function build() {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error('[start] the build failed; nothing was started.');
    process.exit(run.status ?? 1);
  }
}

const present = buildPresent();
const tools = buildTools();

if (!hasSources()) {
  if (!present) {
    console.error('[start] there is neither a build (dist/ and dist-server/) nor the sources to make one.');
    process.exit(1);
  }
  say('no sources here: starting the build as it is');
} else {
  const stamp = readStamp();
  const inputs = inputsHash();
  const fresh = present && stamp?.inputs === inputs;
  if (fresh) {
    say(`build is up to date (built ${stamp.builtAt}): starting it`);
  } else if (tools) {
    say(
      !present
        ? 'no build yet: building'
        : stamp
          ? 'the sources changed since the last build: building'
          : 'the build carries no stamp of its sources: building',
    );
    build();
  } else if (present) {
    console.warn(
      '[start] warning: the build is older than the sources here, and the build tools (dev dependencies) are not installed, so it is started as it is. Run `npm install && npm run build` to update it.',
    );
  } else {
    console.error(
      '[start] there is no build (dist/ and dist-server/) and the build tools are not installed (an install without dev dependencies). Build first: `npm install && npm run build`, then `npm prune --omit=dev` for a production install; or copy dist/ and dist-server/ from a machine that built them.',
    );
    process.exit(1);
  }
}

// As `node --enable-source-maps`: stack traces point into the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(ROOT, 'dist-server', 'main.js')).href);
