import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API and the client share one origin in production; in `npm run dev` vite proxies the
// API to the server started with `npm run serve` (PORT 3000).
const api = 'http://127.0.0.1:3000';
const proxied = ['/api', '/login', '/me', '/refresh-token', '/sign-out', '/healthz'];

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
