import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// File management in Greek, in a real Chromium against the real server: an ADMIN makes a
// folder, uploads two files at once (each with its progress bar) and a third by dropping it on
// the page, downloads one under its Greek name, then deletes the folder with its contents.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const drawer = () => page.locator('.ant-drawer-content');
const rows = () => page.locator('.ant-table-row');

describe('file management', () => {
  it('an ADMIN uploads into a new folder, downloads a file and deletes the folder with its contents', async () => {
    const token = await rootToken();
    const admin = { username: `files${Date.now()}`, password: 'files-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Ελένη', last_name: 'Αρχειοθέτρια' });
    await submitSignIn(page, baseUrl, admin.username, admin.password);
    await page.waitForURL(`${baseUrl}/`);

    await page.getByRole('menuitem', { name: 'Αρχεία' }).click();
    await page.waitForURL(/\/file-management/);
    await page.getByRole('heading', { name: 'Διαχείριση αρχείων', exact: true }).first().waitFor();

    // a new folder, opened from the tree
    await page.getByRole('button', { name: 'Νέος φάκελος' }).click();
    await page.waitForURL(/mode=create/);
    await drawer().getByLabel('Όνομα', { exact: true }).fill('Πρόγραμμα Νοεμβρίου');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    await page.locator('.ant-tree').getByText('Πρόγραμμα Νοεμβρίου', { exact: true }).click();
    await page.waitForURL(/folder=\d+/);
    await page.locator('.ant-breadcrumb').getByText('Πρόγραμμα Νοεμβρίου').waitFor();

    // two files at once through the button's file picker, each with its own progress bar
    const timetable = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024, 0x20), Buffer.from('\n%%EOF\n')]);
    const prices = Buffer.from('Τιμοκατάλογος\nΓυμνάσιο: 90 €\nΛύκειο: 140 €\n', 'utf8');
    await page.getByTestId('file-input').setInputFiles([
      { name: 'Ωρολόγιο πρόγραμμα.pdf', mimeType: 'application/pdf', buffer: timetable },
      { name: 'Τιμοκατάλογος.txt', mimeType: 'text/plain', buffer: prices },
    ]);
    const uploads = page.getByTestId('upload');
    await expect.poll(() => uploads.count()).toBe(2);
    await expect.poll(() => page.locator('.frontis-uploads .ant-progress-status-success').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => uploads.filter({ hasText: 'Ανέβηκε' }).count()).toBe(2);
    await rows().filter({ hasText: 'Ωρολόγιο πρόγραμμα.pdf' }).waitFor();
    await rows().filter({ hasText: 'Τιμοκατάλογος.txt' }).waitFor();
    await rows().filter({ hasText: 'Ωρολόγιο πρόγραμμα.pdf' }).getByText('application/pdf').waitFor();
    await rows().filter({ hasText: 'Ωρολόγιο πρόγραμμα.pdf' }).getByText('Ελένη Αρχειοθέτρια').waitFor();

    // a third dropped onto the page
    const dropped = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['Ανακοίνωση για τις εξετάσεις'], 'Ανακοίνωση.txt', { type: 'text/plain' }));
      return data;
    });
    await page.locator('.frontis-files').dispatchEvent('dragenter', { dataTransfer: dropped });
    await page.getByText('Αφήστε τα αρχεία εδώ', { exact: false }).waitFor();
    await page.locator('.frontis-files').dispatchEvent('drop', { dataTransfer: dropped });
    await rows().filter({ hasText: 'Ανακοίνωση.txt' }).waitFor();
    await expect.poll(() => rows().count()).toBe(3);

    // a download keeps its Greek name and its bytes
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Λήψη Τιμοκατάλογος.txt' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Τιμοκατάλογος.txt');
    expect(await readFile((await file.path())!)).toEqual(prices);

    // the folder is not empty: deleted only when asked to delete its contents too
    await page.getByRole('button', { name: 'Διαγραφή φακέλου' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Διαγραφή' }).click();
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.first().waitFor();
    const asked = await confirm.textContent();
    expect(asked).toContain('Ο φάκελος «Πρόγραμμα Νοεμβρίου» δεν είναι άδειος');
    expect(asked).toContain('Περιέχει 3 αρχεία.');
    await confirm.getByRole('button', { name: 'Διαγραφή μαζί με τα περιεχόμενα' }).click();
    await page.getByText('Ο φάκελος «Πρόγραμμα Νοεμβρίου» διαγράφηκε').waitFor();
    await page.waitForURL((url) => !url.search.includes('folder='));
    await expect.poll(() => page.locator('.ant-tree').getByText('Πρόγραμμα Νοεμβρίου', { exact: true }).count()).toBe(0);
    await page.getByRole('searchbox').fill('Ωρολόγιο');
    await page.getByText('Κανένα αποτέλεσμα.').first().waitFor();
  });
});
