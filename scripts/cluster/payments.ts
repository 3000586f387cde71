/**
 * Payments written through Frontis's API, as the office would: what the restore drill writes
 * before and after its chosen moment. Sets up a category, a student and a contract once.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers of our own API, read field by field
type Row = Record<string, any>;

async function must(base: string, method: string, path: string, token: string | undefined, body: unknown, status = 201): Promise<Row> {
  const headers: Record<string, string> = { 'x-tenant-id': 'demo', 'x-client-type': 'api', 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Row;
}

/** Signs in as `root` at `base` (a Frontis process) and returns a function that writes one payment and gives its id. */
export async function paymentWriter(base: string, root: { username: string; password: string }): Promise<() => Promise<number>> {
  const token = (await must(base, 'POST', '/login', undefined, { ...root, tenant: 'demo' }, 200)).token as string;
  const suffix = Date.now().toString(36);
  const category = (await must(base, 'POST', '/api/contract-categories', token, { name: `Δοκιμή επαναφοράς ${suffix}` })).data as Row;
  const student = (await must(base, 'POST', '/api/students', token, { first_name: 'Ελένη', last_name: `Επαναφοράς ${suffix}` })).data as Row;
  const contract = (
    await must(base, 'POST', '/api/contracts', token, {
      student_id: student.id,
      category_id: category.id,
      start_date: '2026-09-15',
      end_date: '2027-06-30',
      register_cost: 0,
      month_cost: 5000,
      with_receipt: false,
    })
  ).data as Row;
  return async () =>
    (
      (
        await must(base, 'POST', '/api/payments', token, {
          contract_id: contract.id,
          kind: 'MONTHLY',
          month: '2026-10',
          amount: 1234,
          method: 'CASH',
          paid_on: '2026-10-01',
        })
      ).data as Row
    ).id as number;
}
