import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, signInAsAnother, signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Receipts in a real Chromium, in Greek: the centre's details are filled in, a secretary
// records a payment for a contract its student's mother pays, and opens its receipt: the
// centre's issuer block (legal name, ΑΦΜ, ΔΟΥ), the mother as payer with her ΑΦΜ, the number of
// the centre's series, the month in the genitive and the state in myDATA. The receipts screen
// finds it by the payer's name.
const baseUrl = e2eServer().baseUrl;
const aadeAccount = inject('aade');

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
const GENITIVE = [
  'Ιανουαρίου',
  'Φεβρουαρίου',
  'Μαρτίου',
  'Απριλίου',
  'Μαΐου',
  'Ιουνίου',
  'Ιουλίου',
  'Αυγούστου',
  'Σεπτεμβρίου',
  'Οκτωβρίου',
  'Νοεμβρίου',
  'Δεκεμβρίου',
];

async function centre() {
  const token = await rootToken();
  const n = Date.now() % 100_000;
  const secretary = { username: `apodeixeis${n}`, password: 'secretary-password-1' };
  await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Ταμία' });
  const settings = (await (await call(token, 'GET', '/api/settings')).json()) as { data: { version: number } };
  const patched = await call(token, 'PATCH', '/api/settings', {
    version: settings.data.version,
    legal_name: 'Φροντιστήριο Αλφάβητο Ο.Ε.',
    tax_id: '094014201',
    tax_office: 'Δ΄ Αθηνών',
    address: 'Σόλωνος 12',
    city: 'Αθήνα',
    postal_code: '10673',
  });
  expect(patched.status, await patched.clone().text()).toBe(200);
  const student = await post(token, '/api/students', { first_name: 'Δανάη', last_name: `Μαυρίδη${n}` });
  const mother = await post(token, '/api/guardians', {
    first_name: 'Ιφιγένεια',
    last_name: `Μαυρίδη${n}`,
    relation: 'MOTHER',
    address: 'Ακαδημίας 5',
    city: 'Αθήνα',
    postal_code: '10671',
    tax_id: '123456783',
    student_ids: [student.id],
  });
  const category = await post(token, '/api/contract-categories', { name: `Ετήσιο ${n}` });
  const contract = await post(token, '/api/contracts', {
    student_id: student.id,
    payer_guardian_id: mother.id,
    category_id: category.id,
    start_date: `${THIS_MONTH}-01`,
    end_date: `${now.getFullYear() + 1}-06-30`,
    register_cost: 0,
    month_cost: 12050,
    with_receipt: true,
  });
  return { secretary, contractId: contract.id, payer: `Ιφιγένεια Μαυρίδη${n}`, student: `Δανάη Μαυρίδη${n}` };
}

describe('receipts', () => {
  it('a secretary records a payment for a contract a mother pays and opens its receipt', async () => {
    const { secretary, contractId, payer } = await centre();
    await signInAt(page, baseUrl, secretary.username, secretary.password, `/contracts/?mode=status&contract=${contractId}`);
    const status = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText('Κατάσταση συμβολαίου', { exact: true }) });
    const month = status.locator(`tr[data-line="${THIS_MONTH}"]`);
    await month.waitFor();
    await month.getByRole('button', { name: 'Καταχώριση πληρωμής' }).click();
    const form = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText('Νέα πληρωμή', { exact: true }) });
    await form.waitFor();
    // "with receipt", as the contract: the number comes on save
    await form.getByText(/^Θα εκδοθεί απόδειξη με αριθμό περίπου /).waitFor();
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => month.textContent()).toContain('Πληρωμένο');

    await status.getByRole('tab', { name: 'Πληρωμές' }).click();
    const paymentRow = status.locator('.ant-table-row', { hasText: '120,50 €' });
    await paymentRow.getByRole('button', { name: 'Απόδειξη' }).click();
    const receipt = page.locator('.ant-modal-content', { hasText: 'Απόδειξη Παροχής Υπηρεσιών' });
    await receipt.waitFor();
    // the issuer block
    await receipt.getByText('Φροντιστήριο Αλφάβητο Ο.Ε.', { exact: true }).waitFor();
    await receipt.getByText('ΑΦΜ: 094014201 · ΔΟΥ: Δ΄ Αθηνών').waitFor();
    await receipt.getByText('Σόλωνος 12, 10673 Αθήνα').waitFor();
    // the number of the centre's series, the payer and what it pays for
    const title = (await receipt.locator('.ant-modal-title').textContent())!;
    expect(title).toMatch(/^Απόδειξη [^-\s]+-\d+$/);
    await receipt.getByText(/^Σειρά \S+ · Αριθμός \d+/).waitFor();
    await receipt.getByText(payer, { exact: true }).waitFor();
    await receipt.getByText('123456783', { exact: true }).waitFor();
    await receipt.getByText(`Δίδακτρα ${GENITIVE[now.getMonth()]} ${now.getFullYear()}`).waitFor();
    await receipt.getByText('εκατόν είκοσι ευρώ και πενήντα λεπτά').waitFor();
    await receipt.getByText('Απαλλάσσεται από ΦΠΑ (άρθρο 22 Κώδικα ΦΠΑ)').waitFor();
    await receipt.getByText('Δεν έχει καταχωριστεί ακόμη στο myDATA').waitFor();
    await receipt.locator('.ant-modal-footer').getByRole('button', { name: 'Κλείσιμο' }).click();

    // the receipts screen finds it by the payer's name, without accents
    await openInApp(page, '/receipts/');
    const search = page.getByLabel('Αναζήτηση με πελάτη ή αριθμό');
    await search.fill(
      payer
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase(),
    );
    await search.press('Enter');
    await page.locator('.ant-table-row', { hasText: payer }).waitFor();
    expect(await page.locator('.ant-table-row', { hasText: payer }).count()).toBe(1);
  });
  it("with myDATA turned on by the admin, the secretary's receipt shows its MARK and QR code once AADE registers it", async () => {
    const { secretary, contractId, payer } = await centre();
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const admin = { username: `dioikisi${n}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Ελένη', last_name: 'Διευθύντρια' });
    const signIn = (user: { username: string; password: string }, path: string) => signInAsAnother(page, baseUrl, user, path);
    // A receipt issued while myDATA is off (filed another way, say): turning it on asks about it.
    const before = await centre();
    const earlier = await post(token, '/api/payments', {
      contract_id: before.contractId,
      kind: 'MONTHLY',
      month: THIS_MONTH,
      amount: 12050,
      method: 'CASH',
      paid_on: `${THIS_MONTH}-01`,
      with_receipt: true,
    });
    const unsent = ((await (await call(token, 'GET', '/api/settings')).json()) as { data: { mydata_unsent: number } }).data.mydata_unsent;
    expect(unsent).toBeGreaterThan(0);
    try {
      // The admin turns myDATA on with the centre's AADE credentials.
      await signIn(admin, '/settings/centre/');
      const userId = page.getByLabel('Όνομα χρήστη ΑΑΔΕ (myDATA)');
      await userId.waitFor();
      await expect.poll(() => page.getByLabel('Επωνυμία').inputValue()).toBe('Φροντιστήριο Αλφάβητο Ο.Ε.');
      const toggle = page.getByRole('switch', { name: 'Αποστολή στο myDATA' });
      if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
      await userId.fill(aadeAccount.userId);
      await page.getByLabel('Κλειδί συνδρομής (subscription key)').fill(aadeAccount.key);
      // Saved without saying what becomes of the earlier receipts: the form asks first.
      await page.getByRole('button', { name: 'Αποθήκευση' }).click();
      const earlierReceipts = page.getByRole('radiogroup', { name: `${unsent} αποδείξεις που εκδόθηκαν νωρίτερα δεν έχουν διαβιβαστεί στο myDATA` });
      await earlierReceipts.waitFor();
      await page.getByText('Επιλέξτε τι θα γίνει με τις προηγούμενες αποδείξεις.').waitFor();
      await expect
        .poll(async () => ((await (await call(token, 'GET', '/api/settings')).json()) as { data: { mydata_enabled: boolean } }).data.mydata_enabled)
        .toBe(false);
      await earlierReceipts.getByRole('radio', { name: /μόνο οι αποδείξεις από τώρα/ }).check();
      await page.getByRole('button', { name: 'Αποθήκευση' }).click();
      await page.getByText('Τα στοιχεία του κέντρου αποθηκεύτηκαν.').waitFor();
      await page.getByText('Έχει οριστεί κλειδί. Γράψτε νέο για να το αλλάξετε.').waitFor();

      // The secretary records a month and opens its receipt.
      await signIn(secretary, `/contracts/?mode=status&contract=${contractId}`);
      const status = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText('Κατάσταση συμβολαίου', { exact: true }) });
      const month = status.locator(`tr[data-line="${THIS_MONTH}"]`);
      await month.waitFor();
      await month.getByRole('button', { name: 'Καταχώριση πληρωμής' }).click();
      const form = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText('Νέα πληρωμή', { exact: true }) });
      await form.waitFor();
      await form.getByRole('button', { name: 'Αποθήκευση' }).click();
      await form.waitFor({ state: 'detached' });
      await expect.poll(() => month.textContent()).toContain('Πληρωμένο');
      await status.getByRole('tab', { name: 'Πληρωμές' }).click();
      await status.locator('.ant-table-row', { hasText: '120,50 €' }).getByRole('button', { name: 'Απόδειξη' }).click();
      const receipt = page.locator('.ant-modal-content', { hasText: 'Απόδειξη Παροχής Υπηρεσιών' });
      await receipt.waitFor();
      await receipt.getByText('Φροντιστήριο Αλφάβητο Ο.Ε.', { exact: true }).waitFor();
      await receipt.getByText('ΑΦΜ: 094014201 · ΔΟΥ: Δ΄ Αθηνών').waitFor();
      await receipt.getByText(payer, { exact: true }).waitFor();
      const billNumber = (await receipt.locator('.ant-modal-title').textContent())!.replace(/^Απόδειξη /, '');

      // The job sends it to the stand-in within seconds; opened again, the receipt shows AADE's MARK and the QR code.
      const receiptId = await (async () => {
        const res = await call(token, 'GET', `/api/receipts?q=${encodeURIComponent(billNumber)}`);
        const rows = ((await res.json()) as { data: { id: number; bill_number: string }[] }).data;
        return rows.find((r) => r.bill_number === billNumber)!.id;
      })();
      let registered: { mark: string | null; qr_url: string | null } = { mark: null, qr_url: null };
      await expect
        .poll(
          async () => {
            registered = ((await (await call(token, 'GET', `/api/receipts/${receiptId}`)).json()) as { data: typeof registered }).data;
            return registered.mark;
          },
          { timeout: 30_000, interval: 500 },
        )
        .toMatch(/^\d{15}$/);
      // AADE's address of the document, which ends in its MARK
      expect(registered.qr_url!.startsWith(`${new URL(aadeAccount.url).origin}/TimologioQR/QRInfo?q=`), String(registered.qr_url)).toBe(true);
      expect(registered.qr_url!.endsWith(registered.mark!), String(registered.qr_url)).toBe(true);
      // The receipt issued before myDATA was turned on "from now on" was never sent.
      const earlierPayment = ((await (await call(token, 'GET', `/api/payments/${earlier.id}`)).json()) as { data: { receipt_id: number } }).data;
      const earlierReceipt = ((await (await call(token, 'GET', `/api/receipts/${earlierPayment.receipt_id}`)).json()) as { data: { mark: string | null } })
        .data;
      expect(earlierReceipt.mark).toBeNull();
      await receipt.locator('.ant-modal-footer').getByRole('button', { name: 'Κλείσιμο' }).click();
      await receipt.waitFor({ state: 'hidden' });
      await status.locator('.ant-table-row', { hasText: '120,50 €' }).getByRole('button', { name: 'Απόδειξη' }).click();
      await receipt.waitFor();
      await receipt.getByText(`ΜΑΡΚ: ${registered.mark}`).waitFor();
      const qr = receipt.getByRole('img', { name: 'Κωδικός QR της απόδειξης στο myDATA' });
      await qr.waitFor();
      expect(await qr.getAttribute('data-qr-url')).toBe(registered.qr_url);
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      // the QR code is drawn: an image of its own size, not a broken one
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    } finally {
      // The other browser tests' receipts stay unregistered: myDATA goes off again.
      const settings = (await (await call(token, 'GET', '/api/settings')).json()) as { data: { version: number } };
      await call(token, 'PATCH', '/api/settings', { version: settings.data.version, mydata_enabled: false });
    }
  });
});
