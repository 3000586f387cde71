import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, JSON_HEADERS, post, rootToken } from './api';
import { signInAsAnother, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The unpaid list as the secretary makes her debt calls from it: each row names the payer and
// her phone and what her whole family owes; "Υπενθύμιση τώρα" sends the payer her reminder
// (both children in one message) and says so; a second click the same day is told the first.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1600, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;

describe('the unpaid list', () => {
  it('shows the payer, her phone and the family’s total, and sends her reminder now, once', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const secretary = { username: `ofeiles.gram${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέας' });
    const surname = `Οφειλέτη${n}`;
    const daughter = await post(token, '/api/students', { first_name: 'Μελίνα', last_name: surname });
    const son = await post(token, '/api/students', { first_name: 'Στέλιος', last_name: surname });
    const mother = await post(token, '/api/guardians', {
      first_name: 'Ρένα',
      last_name: surname,
      relation: 'MOTHER',
      phone: '6971234567',
      email: `rena${n}@example.com`,
      student_ids: [daughter.id, son.id],
    });
    // started late this month (the list shows the newest first), each owing this month
    const contract = (student: { id: number }, month_cost: number) =>
      post(token, '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: mother.id,
        start_date: `${THIS_MONTH}-28`,
        end_date: `${now.getFullYear() + 1}-06-30`,
        register_cost: 0,
        month_cost,
      });
    const hers = await contract(daughter, 7000);
    await contract(son, 5000);

    await signInAsAnother(page, baseUrl, secretary, `/contracts/?filters[0][field]=unpaid_month&filters[0][operator]=eq&filters[0][value]=${THIS_MONTH}`);
    const row = page.locator('.ant-table-row', { hasText: `Μελίνα ${surname}` });
    await row.waitFor();
    await row.getByText(`Ρένα ${surname}`).waitFor();
    expect(await row.getByTestId('payer-phone').getAttribute('href')).toBe('tel:6971234567');
    // 70,00 € for her, 50,00 € for her brother: the family's 120,00 €
    await row.getByText('120,00 €').waitFor();

    await row.getByRole('button', { name: 'Υπενθύμιση τώρα' }).click();
    await page.getByText(`Η υπενθύμιση προς Ρένα ${surname} γράφτηκε για αποστολή (120,00 €).`).waitFor();
    await row.getByRole('button', { name: 'Υπενθύμιση τώρα' }).click();
    await page.getByText(`Η υπενθύμιση προς Ρένα ${surname} στάλθηκε ήδη σήμερα από το γραφείο`, { exact: false }).waitFor();

    // one message, naming both children
    const reminders = (await (await call(token, 'GET', `/api/contracts/${hers.id}/reminders`)).json()) as { data: { body: string }[] };
    expect(reminders.data).toHaveLength(1);
    expect(reminders.data[0]!.body).toContain(`Μελίνα ${surname}:`);
    expect(reminders.data[0]!.body).toContain(`Στέλιος ${surname}:`);
    expect(reminders.data[0]!.body).toContain('Σύνολο: 120,00 €');
  });

  it('the guardian’s screen copies a fresh invitation link (the older one stops working) and opens her family statement', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const secretary = { username: `syndesmos.gram${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέας' });
    const mother = await post(token, '/api/guardians', {
      first_name: 'Λένα',
      last_name: `Συνδέσμου${n}`,
      relation: 'MOTHER',
      email: `lena${n}@example.com`,
      portal: true,
    });
    await signInAsAnother(page, baseUrl, secretary, `/guardians/?mode=view&guardian=${mother.id}`);
    await page.getByTestId('family-statement').waitFor();
    const card = page.getByTestId('portal-access');
    await card.getByRole('button', { name: 'Αντιγραφή συνδέσμου πρόσκλησης' }).click();
    const handed = page.getByTestId('portal-handed-link');
    const link = (await handed.getByText('/invitation?token=', { exact: false }).textContent())!.trim();
    const fresh = new URL(link).searchParams.get('token')!;
    const open = (tok: string) => fetch(`${e2eServer().apiBase}/api/invitation?token=${tok}`, { headers: JSON_HEADERS });
    expect((await open(fresh)).status).toBe(200);
    // copying again makes another: the first stops working
    await card.getByRole('button', { name: 'Αντιγραφή συνδέσμου πρόσκλησης' }).click();
    await expect.poll(async () => (await handed.getByText('/invitation?token=', { exact: false }).textContent())!.trim()).not.toBe(link);
    expect((await open(fresh)).status).toBe(404);
  });
});
