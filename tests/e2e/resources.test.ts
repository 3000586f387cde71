import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/open';
import { migrate } from '../../server/db/migrate';
import { signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Declared once, seen in a real Chromium: the Settings group with every label whole at
// 1440 px, the document title in the chosen language, and a resource declared at run time
// mounted by the client with list, create, edit, view and History.
const baseUrl = e2eServer().baseUrl;
const root = inject('root');

const tab = useBrowserTab({ width: 1440, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const heading = (name: string) => page.getByRole('heading', { name, exact: true }).first().waitFor();
const drawer = () => page.locator('.ant-drawer-content:visible');

/** Signs in to the server at `base` and lands on `path`: one page load. */
async function signIn(base: string, path = '/') {
  await signInAt(page, base, root.username, root.password, path);
}

describe('the sidebar and the title', () => {
  it('groups the settings pages under Settings, and no label is cut at 1440 px', async () => {
    await signIn(baseUrl);
    await page.getByRole('menuitem', { name: 'Ρυθμίσεις' }).click();
    const settings = page.locator('.ant-menu-sub');
    for (const label of [
      'Κατηγορίες τμημάτων',
      'Κατηγορία συμβολαίων',
      'Τύποι μαθημάτων',
      'Ετικέτες μαθημάτων',
      'Πρόσθετα πεδία μαθητών',
      'Χρήστες/Διαχειριστές',
    ]) {
      await settings.getByRole('link', { name: label, exact: true }).waitFor();
    }
    const labels = await page
      .locator('.ant-layout-sider .ant-menu-title-content')
      .evaluateAll((all) => all.map((e) => ({ text: e.textContent, cut: e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1 })));
    expect(labels.length).toBeGreaterThan(12);
    expect(labels.filter((l) => l.cut)).toEqual([]);
  });

  it('follows a language switch in the document title', async () => {
    await signIn(baseUrl, '/rooms/');
    await heading('Αίθουσες');
    await expect.poll(() => page.title()).toBe('Αίθουσες | Frontis');
    await page.locator('header').getByText('EN', { exact: true }).click();
    await heading('Rooms');
    await expect.poll(() => page.title()).toBe('Rooms | Frontis');
  });
});

describe('a resource declared at run time', () => {
  let server: FastifyInstance | undefined;
  let close: (() => Promise<void>) | undefined;
  let base = '';
  const outDir = mkdtempSync(join(tmpdir(), 'frontis-runtime-'));

  // The fixture page is the real client (tests/e2e/runtime-fixture), served by a real server
  // on its own embedded database.
  beforeAll(async () => {
    await build({
      root: join(__dirname, 'runtime-fixture'),
      configFile: false,
      plugins: [react()],
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
    });
    const config = {
      ...loadConfig({}),
      defaultTenant: 'demo',
      rootUsername: root.username,
      rootPassword: root.password,
      demoData: false,
      logLevel: 'silent' as const,
    };
    const database = await openDatabase({});
    await migrate(database);
    await bootstrap(database, config);
    server = await buildApp({ database, config, distDir: outDir });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    base = `http://demo.localhost:${typeof address === 'object' && address ? address.port : 0}`;
    close = async () => {
      await server?.close();
      await database.close();
    };
  });
  afterAll(async () => {
    await close?.();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('lists, creates, edits and views rows, with their History, at its route', async () => {
    await signIn(base, '/custom-entities/entity/rooms-copy/');
    await heading('Αίθουσες');

    await page.getByRole('button', { name: 'Νέα αίθουσα' }).click();
    await page.waitForURL(/mode=create/);
    await drawer().getByLabel('Όνομα', { exact: true }).fill('Αίθουσα Ωμέγα');
    await drawer().getByLabel('Χωρητικότητα', { exact: true }).fill('12');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    const row = page.locator('tr', { hasText: 'Αίθουσα Ωμέγα' });
    await row.waitFor();

    await row.getByRole('button', { name: 'Επεξεργασία' }).click();
    await page.waitForURL(/mode=update&custom_entity_instance=\d+/);
    const capacity = drawer().getByLabel('Χωρητικότητα', { exact: true });
    await expect.poll(() => capacity.inputValue()).toBe('12');
    await capacity.fill('14');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await row.getByText('14', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Προβολή' }).click();
    await page.waitForURL(/mode=view&custom_entity_instance=\d+/);
    await drawer().getByText('Αίθουσα Ωμέγα').first().waitFor();
    await drawer().getByRole('tab', { name: 'Ιστορικό' }).click();
    const change = drawer().locator('[data-testid=history-entry]', { hasText: 'Αλλαγή' });
    await change.waitFor();
    await change.getByText('14', { exact: true }).waitFor();
    await drawer().locator('[data-testid=history-entry]', { hasText: 'Δημιουργία' }).waitFor();

    // the same rows as the built-in screen: it is the real resource (loaded afresh: moved to in
    // the app, the screen before, with the same heading and row, would stay until it is drawn)
    await page.goto(`${base}/rooms/`);
    await page.locator('tr', { hasText: 'Αίθουσα Ωμέγα' }).waitFor();
  });
});
