// Seeds students through the public import API, as a centre moving to Frontis would.
const FIRST = ['Γιώργος', 'Μαρία', 'Νίκος', 'Ελένη', 'Κώστας', 'Αικατερίνη', 'Δημήτρης', 'Σοφία', 'Γιάννης', 'Αναστασία', 'Παναγιώτης', 'Χριστίνα'];
const LAST = [
  'Παπαδόπουλος',
  'Νικολάου',
  'Γεωργίου',
  'Οικονόμου',
  'Αντωνίου',
  'Μακρής',
  'Βασιλείου',
  'Δημητρίου',
  'Ιωάννου',
  'Κωνσταντίνου',
  'Καραγιάννης',
  'Αλεξίου',
];

type Headers = (tenant: string) => Record<string, string>;

async function call(address: string, headers: Record<string, string>, path: string, body: unknown) {
  const res = await fetch(address + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return res.json() as Promise<Record<string, unknown>>;
}

const students = (n: number, offset: number) =>
  Array.from({ length: n }, (_, i) => {
    const k = i + offset;
    return {
      first_name: FIRST[k % FIRST.length],
      last_name: `${LAST[(k * 7) % LAST.length]} ${k}`,
      phone: `69${String(10_000_000 + k).slice(0, 8)}`,
      status: k % 10 === 0 ? 'INACTIVE' : 'ACTIVE',
      ...(k % 10 === 0 ? { inactive_reason: 'Ολοκλήρωσε' } : {}),
    };
  });

async function importInto(address: string, headers: Record<string, string>, total: number) {
  for (let at = 0; at < total; at += 5000) {
    await call(address, headers, '/api/students/import', { rows: students(Math.min(5000, total - at), at), skip_invalid: false });
  }
}

/** Returns a ROOT access token for the demo tenant. */
export async function seedStudents(address: string, base: Headers, count: number, others: number): Promise<string> {
  const login = await call(address, base('demo'), '/login', { username: 'root', password: 'root-password-1', tenant: 'demo' });
  const token = String(login.token);
  const auth = (tenant: string) => ({ ...base(tenant), authorization: `Bearer ${token}` });
  await call(address, auth('demo'), '/api/tenants', {
    slug: 'other',
    name: 'Άλλο κέντρο',
    admin: { username: 'admin', password: 'admin-password-1', first_name: 'Άλλος', last_name: 'Διαχειριστής' },
  });
  await importInto(address, auth('demo'), count);
  const other = await call(address, base('other'), '/login', { username: 'root', password: 'root-password-1', tenant: 'other' });
  await importInto(address, { ...base('other'), authorization: `Bearer ${String(other.token)}` }, others);
  return token;
}
