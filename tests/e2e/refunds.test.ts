import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { modalOpened, signInAsAnother, useBrowserTab } from './browser';
import { acceptInvitation, today } from './portal-steps';
import { e2eServer } from './server';

// Refunds on screen, in a real Chromium, in Greek: a secretary refunds a withdrawn contract's
// credit from its status and sees it refunded, not to refund; a mother's portal shows the credit
// and then the refund, its figures adding up, and keeps the cancelled receipt beside the credit
// receipt that names it.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const TODAY = today();
const THIS_MONTH = TODAY.slice(0, 7);
const monthAfter = (month: string, n: number) => {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + n, 1));
  return d.toISOString().slice(0, 7);
};
const NEXT_MONTH = monthAfter(THIS_MONTH, 1);
const MONTH_AFTER = monthAfter(THIS_MONTH, 2);
const A_YEAR_ON = `${monthAfter(THIS_MONTH, 11)}-28`;

/** "1.234,56 €" -> 123456 cents. */
const cents = (text: string) => Number(/(-?\d[\d.]*,\d{2})\s*€/.exec(text)![1]!.replace(/\./g, '').replace(',', ''));

async function ok(res: Response) {
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

describe('refunds on screen', () => {
  it("a secretary refunds a withdrawn contract's credit and the contract shows it refunded", async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const secretary = { username: `epistrofi${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Μαρία', last_name: 'Γραμματέως' });
    const student = await post(token, '/api/students', { first_name: 'Ιάσονας', last_name: `Επιστροφής${n}` });
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: A_YEAR_ON,
      register_cost: 0,
      month_cost: 12_345,
      with_receipt: true,
    });
    // the next two months paid ahead, one with a receipt and one without; then she leaves today
    const paid = (await ok(
      await call(token, 'POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: NEXT_MONTH,
        amount: 12_345,
        method: 'CASH',
        paid_on: TODAY,
      }),
    )) as { bill_number: string };
    await post(token, '/api/payments', {
      contract_id: contract.id,
      kind: 'MONTHLY',
      month: MONTH_AFTER,
      amount: 12_345,
      method: 'CASH',
      paid_on: TODAY,
      with_receipt: false,
    });
    await ok(await call(token, 'POST', `/api/contracts/${contract.id}/withdraw`, { on: TODAY, reason: 'Μετακόμιση' }));

    await signInAsAnother(page, baseUrl, secretary, `/contracts/?mode=status&contract=${contract.id}`);
    const status = page.locator('.ant-drawer-content');
    const credit = status.locator('[data-total="credit"]');
    await credit.waitFor();
    expect(cents((await credit.textContent()) ?? '')).toBe(24_690);
    await status.getByRole('button', { name: 'Επιστροφή πίστωσης 246,90 €' }).click();
    const dialog = page.locator('.ant-modal-content', { hasText: 'Αιτία επιστροφής' });
    await dialog.waitFor();
    await modalOpened(page);
    await dialog.getByLabel('Αιτία επιστροφής').fill('Επιστροφή μετά την αποχώρηση');
    await dialog.getByRole('button', { name: 'Επιστροφή', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // refunded, not to refund: the credit card and the button are gone, the refunded figure is there
    const refunded = status.locator('[data-total="refunded"]');
    await refunded.waitFor();
    expect(cents((await refunded.textContent()) ?? '')).toBe(24_690);
    await status.getByText('Επιστράφηκαν 246,90 €', { exact: false }).first().waitFor();
    await expect.poll(() => status.locator('[data-total="credit"]').count()).toBe(0);
    expect(await status.getByRole('button', { name: /Επιστροφή πίστωσης/ }).count()).toBe(0);
    // what it owes is this month's fee, as before
    expect(cents((await status.locator('[data-total="rest"]').textContent()) ?? '')).toBe(12_345);

    // the receipts list: the credit receipt names the receipt it cancels and gives the amount back
    await page.goto(`${baseUrl}/receipts/`);
    const row = page.locator('tr', { hasText: `ακυρώνει την ${paid.bill_number}` });
    await row.waitFor();
    expect(cents((await row.textContent()) ?? '')).toBe(-12_345);
  });

  it("a mother's portal shows a withdrawn contract's credit, then its refund, and keeps both receipts", async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const student = await post(token, '/api/students', { first_name: 'Ελένη', last_name: `Πίστωσης${n}` });
    const email = `pistosi.${n}@example.gr`;
    const guardian = await post(token, '/api/guardians', {
      first_name: 'Άννα',
      last_name: `Πίστωσης${n}`,
      relation: 'MOTHER',
      email,
      notify: true,
      portal: true,
      student_ids: [student.id],
    });
    const password = 'mother-password-1';
    await acceptInvitation(email, password);
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      payer_guardian_id: guardian.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: A_YEAR_ON,
      register_cost: 0,
      month_cost: 10_000,
      with_receipt: true,
    });
    await post(token, '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: THIS_MONTH, amount: 10_000, method: 'CASH', paid_on: TODAY });
    const ahead = (await ok(
      await call(token, 'POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: NEXT_MONTH,
        amount: 5_000,
        method: 'CASH',
        paid_on: TODAY,
      }),
    )) as { id: number; bill_number: string };
    await ok(await call(token, 'POST', `/api/contracts/${contract.id}/withdraw`, { on: TODAY, reason: 'Μετακόμιση' }));

    await signInAsAnother(page, baseUrl, { username: email, password }, '/portal/contracts/');
    const card = page.locator(`[data-contract-id="${contract.id}"]`);
    const figure = async (name: string) => cents((await card.locator(`[data-figure="${name}"]`).textContent()) ?? '');
    await card.locator('[data-figure="credit"]').waitFor();
    // 100,00 € owed and paid, 50,00 € paid ahead for a month no longer owed: credit, apart
    expect(await figure('credit')).toBe(5_000);
    expect((await figure('total')) - (await figure('paid'))).toBe(await figure('left'));

    await ok(await call(token, 'POST', `/api/payments/${ahead.id}/refund`, { reason: 'Επιστροφή πίστωσης' }));
    await page.reload();
    await card.locator('[data-figure="refunded"]').waitFor();
    expect(await figure('refunded')).toBe(5_000);
    expect(await card.locator('[data-figure="credit"]').count()).toBe(0);
    expect((await figure('total')) - (await figure('paid'))).toBe(await figure('left'));

    // her receipts: the cancelled one stays, marked so, and the credit receipt names it
    await page.goto(`${baseUrl}/portal/receipts/`);
    const list = page.getByTestId('portal-receipts');
    await list.getByText(`Ακυρώνει την απόδειξη ${ahead.bill_number}`).waitFor();
    await list.getByText('Ακυρώθηκε').waitFor();
    expect(await list.locator('[data-receipt-id]').count()).toBe(3);
  });
});
