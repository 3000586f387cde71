// `npm run build`: the client (vite, into dist/) and the server (esbuild, into dist-server/),
// then the stamp that lets `npm start` skip the next build. The inputs are hashed before
// building, so a file changed while the build runs makes the stamp stale, not wrong.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { inputsHash, ROOT, writeStamp } from './build-stamp.mjs';

const inputs = inputsHash();
for (const args of [[join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', ...process.argv.slice(2)], [join(ROOT, 'scripts', 'build-server.mjs')]]) {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
writeStamp(inputs);
