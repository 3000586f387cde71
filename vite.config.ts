import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { loadConfig } from './server/config';
import { isApiPath, pathOf } from './server/context';

// The API and the client share one origin in production. In `npm run dev` vite serves the
// client being edited and passes to the server started with `npm run serve` (on the same PORT
// it reads) only what is the server's: the API (by the server's own rule, so GET /login is the
// sign-in page being edited), its docs and its health check.
const api = `http://127.0.0.1:${loadConfig().port}`;
const isServerPath = (method: string, path: string) => isApiPath(method, path) || path.startsWith('/api/') || path === '/healthz';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
/** Smaller files are sent as they are: the encoding would save less than a packet. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at the strongest
 * settings (once per build, not per request); the server picks one by the browser's
 * Accept-Encoding. A variant that would not be smaller is left out.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'frontis-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const brotli = promisify(brotliCompress);
      const gz = promisify(gzip);
      const files = (await filesUnder(outDir)).filter((f) => COMPRESSIBLE.test(f) && !f.includes('/.vite/'));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_BYTES) return;
          const body = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gz(body, { level: 9 }),
          ]);
          if (br.length < body.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

/**
 * @refinedev/antd is one module: whatever any screen takes from it (the list page's header with
 * @ant-design/pro-layout, forms, buttons) would come with the layout every page needs. The
 * layout's two files get their own copy of the module, so the calendar loads only the layout
 * and the screens share the other copy. The layout's context lives in the layout's copy, and
 * only the layout's files read it.
 */
function refineLayoutApart(): Plugin {
  const layoutFiles = /\/src\/components\/(shell|header)\.tsx$/;
  return {
    name: 'frontis-refine-layout-apart',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== '@refinedev/antd' || !importer || !layoutFiles.test(importer)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved ? { ...resolved, id: `${resolved.id}?layout` } : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), refineLayoutApart()],
  resolve: {
    alias: [
      // react-big-calendar asks for lodash's CommonJS files one by one; their ES module twins
      // are smaller and shared with what @refinedev/core already loads.
      { find: /^lodash\/(.*)$/, replacement: 'lodash-es/$1.js' },
      { find: /^side-channel$/, replacement: fileURLToPath(new URL('./src/shims/side-channel.cjs', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2000,
    // dist/.vite/manifest.json: which chunks each entry and screen imports (the size test reads it).
    manifest: true,
    // Sizes are checked by tests/api/plugins/client-size.test.ts instead.
    reportCompressedSize: false,
    rollupOptions: {
      treeshake: {
        // @refinedev/antd is one file that imports react-markdown for a field we never show;
        // the markdown packages don't say they are free of side effects, so without this
        // rule they would ship (about 40 KB gzipped) with the calendar.
        moduleSideEffects: [
          { test: /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unified|vfile[^/]*|hast-[^/]+|unist-[^/]+)\//, sideEffects: false },
          // antd's drawers and menus read one context from rc-field-form's index, whose top level
          // assembles the whole form library: pages without a form need not load it.
          { test: /node_modules\/rc-field-form\/es\/index\.js$/, sideEffects: false },
          // @refinedev/antd's form hooks import sunflower-antd, which does not say it is free of side
          // effects either: its modules (and through them antd's whole Form) stayed with the layout.
          { test: /node_modules\/sunflower-antd\//, sideEffects: false },
          // papaparse is for Refine's CSV import and export hooks, which we do not use.
          { test: /node_modules\/papaparse\//, sideEffects: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/': { target: api, changeOrigin: false, bypass: (req) => (isServerPath(req.method ?? 'GET', pathOf(req.url ?? '/')) ? undefined : req.url) },
    },
  },
});
