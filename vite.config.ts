import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The API and the client share one origin in production; in `npm run dev` vite proxies the
// API to the server started with `npm run serve` (PORT 3000).
const api = 'http://127.0.0.1:3000';
const proxied = ['/api', '/login', '/me', '/refresh-token', '/sign-out', '/healthz'];

export default defineConfig({
  plugins: [react()],
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
    rollupOptions: {
      treeshake: {
        // @refinedev/antd is one file that imports react-markdown for a field we never show;
        // the markdown packages don't say they are free of side effects, so without this
        // rule they would ship (about 40 KB gzipped) with the calendar.
        moduleSideEffects: [
          { test: /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unified|vfile[^/]*|hast-[^/]+|unist-[^/]+)\//, sideEffects: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
