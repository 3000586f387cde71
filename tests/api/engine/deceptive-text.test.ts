// Text that says something other than what it shows is refused: direction overrides in any
// name (a file `invoice‮fdp.exe` shows as a PDF), control characters, names of invisible
// characters only, and usernames that look like another user's (Cyrillic `а` for Latin `a`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksAlike } from '../../../server/modules/auth/usernames';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const RLO = '\u202E';
const BOUNDARY = '----frontis-text';

describe('username skeletons (Unicode TR39)', () => {
  it('fold look-alikes across scripts and case, and keep different names apart', () => {
    expect(looksAlike('аdmin', 'admin')).toBe(true); // Cyrillic а
    expect(looksAlike('ΑDΜΙΝ', 'admin')).toBe(true); // Greek capitals
    expect(looksAlike('Admin', 'admin')).toBe(true);
    expect(looksAlike('rnaria', 'maria')).toBe(true);
    expect(looksAlike('maria', 'marina')).toBe(false);
    expect(looksAlike('eleni.p', 'eleni.k')).toBe(false);
    expect(looksAlike('νίκος', 'nikos')).toBe(false);
  });
});

describe.each(DATABASE_KINDS)('deceptive text on %s', (kind) => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = (await t.signIn(t.root.username, t.root.password)).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) => t.request({ method, url, token: root, body });
  const newUser = (username: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/users', {
      username,
      password: 'user-password-1',
      role: 'SECRETARY',
      first_name: 'Ελένη',
      last_name: 'Παππά',
      ...extra,
    });

  it('refuses a username that looks like an existing one, on create and on rename', async () => {
    expectStatus(await newUser('officeadmin'), 201);
    // Cyrillic а (and, below, о) in place of Latin a and o.
    expectError(await newUser('officeаdmin'), 409, 'conflict', { username: 'taken' });
    expectError(await newUser('OFFICEADMIN'), 409, 'conflict', { username: 'taken' });
    const other = await newUser('katerina');
    expectStatus(other, 201);
    const { id, version } = json(other).data as { id: number; version: number };
    expectError(await call('PATCH', `/api/users/${id}`, { username: 'оfficeadmin', version }), 409, 'conflict', { username: 'taken' });
    // Its own name, or a truly different one, is fine.
    expectStatus(await call('PATCH', `/api/users/${id}`, { username: 'katerina', version }), 200);
    expectStatus(await newUser('officeadmin2'), 201);
  });

  it('refuses direction overrides and controls in names, and names with nothing visible', async () => {
    expectError(await newUser('nikos1', { first_name: `Νίκος${RLO}` }), 400, 'validation', { first_name: 'invalid-format' });
    expectError(await newUser('nikos2', { last_name: 'Πα\u2066πάς' }), 400, 'validation', { last_name: 'invalid-format' });
    expectError(await newUser('nikos3', { first_name: 'Νί\u0085κος' }), 400, 'validation', { first_name: 'invalid-format' });
    expectError(await newUser('nikos4', { first_name: '\u200B\u200C\u200D' }), 400, 'validation');

    const entity = (extra: Record<string, unknown>) => ({
      slug: 'trips',
      name_el: 'Εκδρομή',
      name_en: 'Trip',
      name_plural_el: 'Εκδρομές',
      name_plural_en: 'Trips',
      icon: 'BookOutlined',
      fields: [{ key: 'place', label_el: 'Τόπος', label_en: 'Place', type: 'TEXT' }],
      ...extra,
    });
    expectError(await call('POST', '/api/custom-entities', entity({ name_el: '\u200B\u200B' })), 400, 'validation', { name_el: 'required' });
    expectError(await call('POST', '/api/custom-entities', entity({ name_en: `Trip${RLO}piRT` })), 400, 'validation', { name_en: 'invalid-format' });
    expectError(await call('POST', '/api/custom-entities', entity({ description: 'καλή\u0007εκδρομή' })), 400, 'validation', { description: 'invalid-format' });
    // Free text keeps its line breaks and tabs.
    expectStatus(await call('POST', '/api/custom-entities', entity({ description: 'Πρώτη γραμμή\n\tδεύτερη γραμμή' })), 201);
  });

  it('refuses a file whose name overrides direction, and a rename to one', async () => {
    const upload = (filename: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/files',
        headers: {
          host: 'demo.localhost',
          'x-tenant-id': 'demo',
          'x-client-type': 'api',
          authorization: `Bearer ${root}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        payload: Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\nbytes\r\n--${BOUNDARY}--\r\n`,
        ),
      });
    const before = json(await call('GET', '/api/files')).total as number;
    expectError(await upload(`invoice${RLO}fdp.exe`), 400, 'validation', { name: 'invalid-format' });
    expect(json(await call('GET', '/api/files')).total).toBe(before);
    const ok = await upload('τιμολόγιο.pdf');
    expectStatus(ok, 201);
    const { id, version } = json(ok).data as { id: number; version: number };
    expectError(await call('PATCH', `/api/files/${id}`, { name: `invoice${RLO}fdp.exe`, version }), 400, 'validation', { name: 'invalid-format' });
  });
});
