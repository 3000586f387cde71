import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../bench/free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { signInAt, submitSignIn, useBrowserTab } from './browser';

// An outage survived, in Greek, in a real Chromium: this file runs its own server (the shared
// one of global-setup must stay up for the other files), signs in, stops the server, opens a
// screen not visited yet and a list, and sees the offline banner and the data kept, with no
// technical codes and never the browser's own error page; the server started again on the same
// port and database, the app recovers by itself.
// That server has no mail setting (no SMTP_URL), as a fresh install: first, a guardian given
// portal access is shown as not e-mailed, with her link to copy, never as invited.
const root = inject('root');
const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

let port = 0;
let dataDir = '';
let server: ChildProcess | undefined;

async function start() {
  const child = spawn(process.execPath, ['dist-server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEFAULT_TENANT: 'demo',
      ROOT_USERNAME: root.username,
      ROOT_PASSWORD: root.password,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_PER_ADDRESS: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  server = child;
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not start');
}

async function stop() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

beforeAll(async () => {
  port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'frontis-outage-'));
  await start();
}, 150_000);

afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const headers = { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' };
async function asRoot(path: string, body: unknown): Promise<{ data?: { id: number } }> {
  const base = `http://127.0.0.1:${port}`;
  // A server just started on a busy machine may ask to come back (503 with Retry-After).
  const send = async (url: string, init: RequestInit): Promise<Response> => {
    for (let tries = 0; ; tries++) {
      const res = await fetch(url, init);
      if (res.status !== 503 || tries >= 10) return res;
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    }
  };
  const login = await send(`${base}/login`, { method: 'POST', headers, body: JSON.stringify({ ...root, tenant: 'demo' }) });
  const { token } = (await login.json()) as { token: string };
  const res = await send(`${base}${path}`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { data?: { id: number } };
}

const banner = () => page.getByRole('status').filter({ hasText: 'Δεν υπάρχει σύνδεση με τον διακομιστή' });

/** Nothing on the page shows a technical code or the empty-list text. */
async function noTechnicalText() {
  // biome-ignore lint/performance/useDomNodeTextContent: what the user sees, not the text of hidden parts
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/status code|Network Error|Failed to fetch|ERR_|\b50[234]\b/i);
  expect(text).not.toContain('Κανένα αποτέλεσμα.');
}

describe('no mail setting', () => {
  it('shows a guardian given portal access as not e-mailed, with the link to copy', async () => {
    const admin = { username: `nomail${Date.now() % 100_000}`, password: 'admin-password-1' };
    await asRoot('/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
    const email = `nomail.${Date.now() % 100_000}@example.gr`;
    const guardian = await asRoot('/api/guardians', { first_name: 'Ευτέρπη', last_name: 'Ανειδοποίητη', relation: 'MOTHER', email, portal: true });
    await signInAt(page, `http://demo.localhost:${port}`, admin.username, admin.password, `/guardians/?mode=view&guardian=${guardian.data!.id}`);
    const card = page.getByTestId('portal-access');
    await card.getByText('Η πρόσκληση δεν στάλθηκε με e-mail', { exact: true }).waitFor();
    expect(await card.getByText('Προσκλήθηκε', { exact: true }).count()).toBe(0);
    const warning = page.getByTestId('portal-no-mail');
    await warning.getByText('δεν έχει οριστεί διακομιστής αλληλογραφίας', { exact: false }).waitFor();
    const link = await warning.getByText('/invitation?token=', { exact: false }).textContent();
    // on the host the guardian was saved from (here the API's, on loopback)
    expect(link?.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invitation\?token=[A-Za-z0-9_-]{43}$/);
    // the link is the one that opens her invitation
    const token = new URL(link!.trim()).searchParams.get('token')!;
    const res = await fetch(`http://127.0.0.1:${port}/api/invitation?token=${token}`, { headers });
    expect(((await res.json()) as { data: { email: string } }).data.email).toBe(email);
    await page.context().clearCookies();
  }, 120_000);
});

describe('an outage', () => {
  it('shows the banner, keeps the list, waits on an unvisited screen, and recovers when the server returns', async () => {
    const admin = { username: `outage${Date.now() % 100_000}`, password: 'admin-password-1' };
    await asRoot('/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
    await asRoot('/api/students', { first_name: 'Ηλέκτρα', last_name: 'Βασιλείου' });
    await asRoot('/api/teachers', {
      username: `teacher${Date.now() % 100_000}`,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Ευτυχία',
      last_name: 'Καραγιάννη',
    });
    const baseUrl = `http://demo.localhost:${port}`;
    await submitSignIn(page, baseUrl, admin.username, admin.password);
    await page.waitForURL(`${baseUrl}/`);

    // the students' list, seen once
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    const row = page.locator('.ant-table-row', { hasText: 'Βασιλείου' });
    await row.waitFor();

    await stop();

    // a screen never opened: the app stays, says the server can't be reached, and waits
    await page.getByRole('link', { name: 'Καθηγητές', exact: true }).click();
    await banner().waitFor({ timeout: 20_000 });
    expect(page.url().startsWith(baseUrl)).toBe(true);
    await noTechnicalText();

    // back to the list: what was there is still there
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    await row.waitFor();
    await banner().waitFor();
    await page.waitForTimeout(2500);
    await row.waitFor();
    await noTechnicalText();

    // the screen not loaded yet, again, while down; then the server returns
    await page.getByRole('link', { name: 'Καθηγητές', exact: true }).click();
    await page.waitForTimeout(1000);
    await start();
    await page.getByRole('heading', { name: 'Καθηγητές', exact: true }).first().waitFor({ timeout: 30_000 });
    await banner().waitFor({ state: 'detached', timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/teachers/');
    await page.locator('.ant-table-row', { hasText: 'Καραγιάννη' }).waitFor({ timeout: 20_000 });
    await noTechnicalText();

    // and the list answers again: a student added now appears
    await asRoot('/api/students', { first_name: 'Μυρτώ', last_name: 'Αλεξίου' });
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    await page.locator('.ant-table-row', { hasText: 'Αλεξίου' }).waitFor({ timeout: 20_000 });
  }, 180_000);
});
