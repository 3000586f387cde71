// What a build was made from. `npm run build` writes the hash of its inputs (every file the
// client or the server is built from, and the lock file that fixes the packages) into
// dist-server/build-stamp.json; `npm start` compares it with the inputs as they are now and
// rebuilds only when they differ. A content hash, not modification times: a checkout, a copy
// or `touch` changes times without changing what would be built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const STAMP = join(ROOT, 'dist-server', 'build-stamp.json');

/** Folders and files the build reads; a missing one counts as empty. */
export const INPUTS = [
  'src',
  'domain',
  'server',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];

/** The folders that only exist where the sources are (not in a tree holding just the build). */
const SOURCES = ['src', 'domain', 'server'];

export function hasSources() {
  return SOURCES.every((dir) => existsSync(join(ROOT, dir)));
}

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => files(join(path, entry.name)));
}

/**
 * The lock file as far as a build depends on it: each package's path and version. npm rewrites
 * the file in ways that change nothing installed (`npm install` adds the optional binaries of
 * other platforms that the registry left out), and a production install must not see its own
 * build as stale because of that.
 */
function lockedVersions(file) {
  const { packages = {} } = JSON.parse(readFileSync(file, 'utf8'));
  return Object.entries(packages)
    .filter(([, entry]) => !entry.optional)
    .map(([path, entry]) => `${path}@${entry.version}`)
    .sort()
    .join('\n');
}

/** sha256 over every input's path and content, in a fixed order. */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(ROOT, input))) {
      hash.update(file.slice(ROOT.length));
      hash.update('\0');
      hash.update(input === 'package-lock.json' ? lockedVersions(file) : readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** The stamp of the build in place, or undefined when there is none (or it is unreadable). */
export function readStamp() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    return typeof stamp.inputs === 'string' ? stamp : undefined;
  } catch {
    return undefined;
  }
}

export function writeStamp(inputs) {
  writeFileSync(STAMP, `${JSON.stringify({ inputs, builtAt: new Date().toISOString() }, null, 2)}\n`);
}

/** Both halves of a build are there: the client's page and the compiled server. */
export function buildPresent() {
  return existsSync(join(ROOT, 'dist', 'index.html')) && existsSync(join(ROOT, 'dist-server', 'main.js'));
}
