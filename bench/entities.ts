/**
 * Custom entities in `npm run bench`: ROOT defines a 10-field entity in the seeded centre,
 * 10,000 of its records arrive through the import API, and a filtered, sorted, counted page
 * of them is measured beside the students list (same clients, same duration). The target:
 * the records page's p99 within 1.5x of the students list's.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { entityField, examEntity } from './exam-entity';
import { RECORDS_SLUG, RECORDS_URL, STUDENTS_URL, type SeededServer } from './targets';

const SUBJECTS = ['Μαθηματικά', 'Φυσική', 'Χημεία', 'Βιολογία', 'Ιστορία'];
const TAGS = ['γραπτά', 'προφορικά', 'επανάληψη'];
const SLUG = RECORDS_SLUG;

async function post(address: string, headers: Record<string, string>, path: string, body: unknown) {
  const res = await fetch(address + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** A server to seed through its API, and how to refresh its database's statistics afterwards. */
interface EntityTarget {
  address: string;
  headers: Record<string, string>;
  vacuum(): Promise<void>;
}

/** A server of the bench's own process as a target to seed. */
export const inProcess = (server: SeededServer): EntityTarget => ({
  ...server,
  vacuum: async () => void (await server.database.db.execute(sql`vacuum analyze`)),
});

/** Defines the entity and imports `count` records pointing at the centre's first students. */
export async function seedEntity(server: EntityTarget, count: number): Promise<number> {
  const { address, headers } = server;
  await post(
    address,
    headers,
    '/api/custom-entities',
    examEntity(SLUG, { subjects: SUBJECTS, tags: TAGS }, [
      entityField('notes', 'TEXT', { searchable: true }),
      entityField('room', 'TEXT'),
      entityField('hours', 'NUMBER'),
    ]),
  );
  const page = (await fetch(`${address}/api/students?_start=0&_end=200&_sort=id`, { headers }).then((r) => r.json())) as { data: { id: number }[] };
  const ids = page.data.map((s) => s.id);
  const t0 = Date.now();
  for (let at = 0; at < count; at += 5000) {
    const rows = Array.from({ length: Math.min(5000, count - at) }, (_, i) => {
      const k = at + i;
      return {
        title: `Διαγώνισμα ${SUBJECTS[k % 5]} ${k}`,
        grade: (k * 7) % 21,
        held_on: `2026-${String((k % 12) + 1).padStart(2, '0')}-${String((k % 28) + 1).padStart(2, '0')}`,
        subject: SUBJECTS[(k * 3) % 5],
        tags: [TAGS[k % 3]],
        passed: k % 4 !== 0,
        student: ids[k % ids.length],
        notes: k % 3 === 0 ? 'Χρειάζεται επανάληψη' : null,
        room: `Αίθουσα ${k % 8}`,
        hours: (k % 3) + 1,
      };
    });
    await post(address, headers, `/api/custom-entities/${SLUG}/records/import`, { rows });
  }
  await server.vacuum();
  return (Date.now() - t0) / 1000;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Measured> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** Seeds the entity, then measures the students list and the records page alternately. */
export async function benchEntities(kind: 'pglite' | 'postgres', server: SeededServer, seconds: number, count = 10_000) {
  const seeded = await seedEntity(inProcess(server), count);
  console.log(`  seeded ${count} records of a 10-field custom entity through the import API in ${seeded.toFixed(1)} s`);
  const first = await fetch(server.address + RECORDS_URL, { headers: server.headers });
  if (!first.ok) throw new Error(`${RECORDS_URL} answered ${first.status}: ${await first.text()}`);
  const total = first.headers.get('x-total-count');
  const connections = kind === 'postgres' ? 50 : 10;
  await measure(server.address + STUDENTS_URL, server.headers, connections, Math.max(2, seconds / 2));
  await measure(server.address + RECORDS_URL, server.headers, connections, Math.max(2, seconds / 2));
  const students = await measure(server.address + STUDENTS_URL, server.headers, connections, seconds);
  const records = await measure(server.address + RECORDS_URL, server.headers, connections, seconds);
  const line = (name: string, m: Measured) =>
    console.log(
      `  ${name.padEnd(48)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms` +
        (m.errors ? `  (${m.errors} errors)` : ''),
    );
  line(`students list (${kind})`, students);
  line(`custom records, filtered to ${total}, sorted (${kind})`, records);
  const ratio = records.p99 / Math.max(students.p99, 1);
  console.log(`  custom records p99 / students p99: ${ratio.toFixed(2)}x with ${connections} clients (target ≤ 1.5x)`);
}
