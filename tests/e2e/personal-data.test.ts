import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// A person's data in Greek, in a real Chromium: an ADMIN reads a student's personal data as a
// summary, erases the student after confirming, reads a guardian's summary with her portal
// invitation, and downloads the whole centre's archive from the users screen, its progress
// shown as it arrives.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

describe('personal data', () => {
  it('an ADMIN reads a student’s data, erases her, and downloads the centre', async () => {
    const root = await rootToken();
    const stamp = Date.now().toString(36);
    const admin = { username: `padmin${stamp}`, password: 'admin-password-1' };
    await post(root, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
    const made = (await (
      await call(root, 'POST', '/api/students', { first_name: 'Ιφιγένεια', last_name: `Καλλέργη${stamp}`, email: `ifigeneia${stamp}@example.gr` })
    ).json()) as { data: { id: number } };
    const id = made.data.id;

    await signInAt(page, baseUrl, admin.username, admin.password, `/students/?mode=view&student=${id}`);
    await page.getByRole('button', { name: 'Προσωπικά δεδομένα' }).click();
    const summary = page.locator('.ant-modal-content', { hasText: 'Προσωπικά δεδομένα:' });
    await summary.getByText(`ifigeneia${stamp}@example.gr`).waitFor();
    await summary.getByText('Καταχωρίσεις ιστορικού (1)').or(summary.getByText('Καταχώριση ιστορικού (1)')).first().waitFor();
    await summary.locator('.ant-modal-close').click();
    await summary.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Διαγραφή προσωπικών δεδομένων' }).click();
    await page.getByRole('button', { name: 'Οριστική διαγραφή' }).click();
    await page.getByText('Τα προσωπικά δεδομένα διαγράφηκαν.').waitFor();
    await expect
      .poll(async () => ((await (await call(root, 'GET', `/api/students/${id}`)).json()) as { data: { first_name: string } }).data.first_name)
      .toBe('Διαγραμμένος/η');

    // a guardian given portal access is invited: her summary shows the invitation (what erasure removes with her sign-in)
    const guardian = await post(root, '/api/guardians', {
      first_name: 'Πηνελόπη',
      last_name: `Καλλέργη${stamp}`,
      email: `penelope${stamp}@example.gr`,
      portal: true,
    });
    await openInApp(page, `/guardians/?mode=view&guardian=${guardian.id}`);
    await page.getByRole('button', { name: 'Προσωπικά δεδομένα' }).click();
    const hers = page.locator('.ant-modal-content', { hasText: `penelope${stamp}@example.gr` });
    await hers.getByText('Πρόσκληση στην πύλη (1)').waitFor();
    await hers.locator('.ant-modal-close').click();
    await hers.waitFor({ state: 'hidden' });

    // the whole centre, from the users screen
    await openInApp(page, '/settings/');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Εξαγωγή κέντρου' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^frontis-.*\.zip$/);
    await page.getByText('Η εξαγωγή ολοκληρώθηκε', { exact: false }).waitFor();
  });
});
