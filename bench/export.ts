/**
 * The whole centre's archive (GET /api/export) on the seeded centre: how long it takes, how
 * large it is, and how far the server's memory rises while it streams (the server runs in the
 * bench's process): the archive is made as it is sent, so the rise stays far below its size.
 */
import { performance } from 'node:perf_hooks';
import type { SeededServer } from './targets';

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

export async function benchExport(kind: string, server: SeededServer): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  let bytes = 0;
  try {
    const res = await fetch(`${server.address}/api/export`, { headers: server.headers });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    const reader = res.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.length;
  } finally {
    clearInterval(sample);
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `  ${kind}: whole-centre export, a ${mb(bytes)} MB zip streamed in ${seconds.toFixed(1)} s; ` +
      `the process's RSS rose by at most ${mb(peak - before)} MB meanwhile (the archive is never held whole)`,
  );
}
