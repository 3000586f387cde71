import type { Locator, Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, useBrowserTab } from './browser';
import { customEntitySteps } from './custom-entities-steps';

// The builder's interactions in a real Chromium against the real server, in Greek, as ROOT:
// fields reordered by dragging stay in their new order; a field holding values goes only when
// its values are knowingly discarded; an entity goes with its records only when told how many;
// a student's tab of the records pointing at her pages through more than one page.
const root = inject('root');

// Tall enough for the builder's field cards to be on the screen together (dragging is done on screen).
const tab = useBrowserTab({ width: 1400, height: 1800 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});
const { signIn, drawer, rows, sidebar, card } = customEntitySteps(tab);

const n = Date.now() % 100_000;
let token = '';

type Field = { key: string; label_el: string; type: string } & Record<string, unknown>;

/** Defines an entity through the API; answers its id. */
async function defineEntity(slug: string, singular: string, plural: string, fields: Field[]): Promise<number> {
  const made = await post(token, '/api/custom-entities', {
    slug,
    name_el: singular,
    name_en: slug,
    name_plural_el: plural,
    name_plural_en: `${slug}s`,
    fields: fields.map((f) => ({ label_en: f.key, ...f })),
  });
  return made.id;
}

/** Adds records through the import (one request, all or nothing). */
async function addRecords(slug: string, records: Record<string, unknown>[]) {
  const res = await call(token, 'POST', `/api/custom-entities/${slug}/records/import`, { rows: records });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { created: number }).created).toBe(records.length);
}

/** The column titles of the list on the screen, in their order. */
const headers = async (scope: Locator | Page = page) => (await scope.locator('.ant-table-thead th').allInnerTexts()).map((text) => text.trim());

/** The field keys of the builder's cards, top to bottom. */
const cardKeys = () => page.locator('[data-testid^="entity-field-"] .ant-card-head-title code').allInnerTexts();

const dialog = (title: string) => page.getByRole('dialog').filter({ hasText: title });

/** The builder's address for entity `id`. */
const builderOf = (id: number) => `/custom-entities/builder/?mode=update&entity=${id}`;

/** Moves in the app to `path`, unless a sign-in has just led there. */
async function arriveAt(path: string) {
  const here = new URL(page.url());
  if (here.pathname + here.search !== path) await openInApp(page, path);
}

async function openBuilder(id: number) {
  await arriveAt(builderOf(id));
  await page.getByText('Προεπισκόπηση φόρμας').waitFor();
  await card(0).waitFor();
}

async function openRecords(slug: string) {
  await openInApp(page, `/custom-entities/entity/${slug}/`);
  // the records' own screen drawn (the list of entities, with a pagination of its own, stays until it is)
  await page.getByRole('button', { name: /^Νέα εγγραφή: / }).waitFor();
  await page.locator('.ant-pagination-total-text').first().waitFor();
}

beforeAll(async () => {
  token = await rootToken();
});

describe('the custom-entity builder', () => {
  it('fields dragged into a new order keep it once saved, in the list and in the builder', async () => {
    const slug = `books${n}`;
    const id = await defineEntity(slug, 'Βιβλίο', `Βιβλία ${n}`, [
      { key: 'title', label_el: 'Τίτλος', type: 'TEXT' },
      { key: 'state', label_el: 'Κατάσταση', type: 'SINGLE_CHOICE', options: ['Διαθέσιμο', 'Δανεισμένο'] },
      { key: 'due', label_el: 'Επιστροφή', type: 'DATE' },
    ]);
    await addRecords(slug, [{ title: 'Οδύσσεια', state: 'Δανεισμένο', due: '2027-01-15' }]);
    await signIn(root, builderOf(id));
    await openBuilder(id);
    expect(await cardKeys()).toEqual(['title', 'state', 'due']);

    // drag the third field by its handle above the first
    const handle = (i: number) => card(i).getByRole('button', { name: 'Σύρετε για αλλαγή σειράς' });
    const from = (await handle(2).boundingBox())!;
    const to = (await handle(0).boundingBox())!;
    const x = from.x + from.width / 2;
    await page.mouse.move(x, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, from.y + from.height / 2 - 12, { steps: 4 });
    await page.mouse.move(x, to.y + to.height / 2 - 12, { steps: 25 });
    await page.mouse.up();
    await expect.poll(cardKeys).toEqual(['due', 'title', 'state']);
    // the cards are numbered in their new order, each with its own settings, and the preview's form follows
    await card(0).getByText('Πεδίο 1', { exact: true }).waitFor();
    await card(2).getByLabel('Επιλογές', { exact: true }).waitFor();
    expect(await card(0).getByLabel('Επιλογές', { exact: true }).count()).toBe(0);
    await expect.poll(() => page.getByTestId('entity-preview').locator('.ant-form-item-label').allInnerTexts()).toEqual(['Επιστροφή', 'Τίτλος', 'Κατάσταση']);

    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL(/\/custom-entities\/$/);
    await rows().filter({ hasText: slug }).waitFor();

    await openRecords(slug);
    expect(await headers()).toEqual(['Επιστροφή', 'Τίτλος', 'Κατάσταση', 'Ενέργειες']);
    await page.reload();
    await page.locator('.ant-pagination-total-text').waitFor();
    expect(await headers()).toEqual(['Επιστροφή', 'Τίτλος', 'Κατάσταση', 'Ενέργειες']);
    expect((await rows().first().locator('td').allInnerTexts()).slice(0, 3)).toEqual(['15/01/2027', 'Οδύσσεια', 'Δανεισμένο']);
    // the record form asks for them in that order too
    await page.getByRole('button', { name: 'Νέα εγγραφή: Βιβλίο' }).click();
    await drawer().getByText('Κατάσταση', { exact: true }).waitFor();
    await expect.poll(() => drawer().locator('.ant-form-item-label').allInnerTexts()).toEqual(['Επιστροφή', 'Τίτλος', 'Κατάσταση']);
    await openBuilder(id);
    expect(await cardKeys()).toEqual(['due', 'title', 'state']);
  });

  it('a field that holds values is removed only when its values are discarded', async () => {
    const slug = `loans${n}`;
    const id = await defineEntity(slug, 'Δανεισμός', `Δανεισμοί ${n}`, [
      { key: 'title', label_el: 'Τίτλος', type: 'TEXT', required: true },
      { key: 'note', label_el: 'Σημείωση', type: 'TEXT' },
    ]);
    await addRecords(slug, [
      { title: 'Οδύσσεια', note: 'Με σημειώσεις στο περιθώριο' },
      { title: 'Ιλιάδα', note: 'Λείπει το εξώφυλλο' },
      { title: 'Αργοναυτικά' },
    ]);
    await signIn(root, builderOf(id));
    const removeNote = async () => {
      await openBuilder(id);
      await card(1).getByRole('button', { name: 'Αφαίρεση πεδίου' }).click();
      await expect.poll(cardKeys).toEqual(['title']);
      await page.getByRole('button', { name: 'Αποθήκευση' }).click();
      const asked = dialog('Το πεδίο «Σημείωση» έχει τιμές');
      await asked.getByText('2 εγγραφές έχουν τιμή σε αυτό το πεδίο. Να αφαιρεθεί το πεδίο και να απορριφθούν οι τιμές τους;', { exact: true }).waitFor();
      // answered once it has opened, as a person does (a click in the first frames of its
      // opening animation was now and then lost by antd's modal, which then stayed open)
      await expect.poll(async () => (await asked.getAttribute('class')) ?? '').not.toMatch(/zoom-appear/);
      return asked;
    };

    // cancelled: nothing is saved, the field and its values stay
    let asked = await removeNote();
    await asked.getByRole('button', { name: 'Ακύρωση' }).click();
    await asked.waitFor({ state: 'hidden' });
    expect(page.url()).toContain('/custom-entities/builder/');
    await openRecords(slug);
    expect(await headers()).toEqual(['Τίτλος', 'Σημείωση', 'Ενέργειες']);
    await rows().filter({ hasText: 'Οδύσσεια' }).getByText('Με σημειώσεις στο περιθώριο').waitFor();
    await rows().filter({ hasText: 'Ιλιάδα' }).getByText('Λείπει το εξώφυλλο').waitFor();

    // confirmed: the field and its values are gone, the records stay
    asked = await removeNote();
    await asked.getByRole('button', { name: 'Απόρριψη των τιμών' }).click();
    await page.waitForURL(/\/custom-entities\/$/);
    await rows().filter({ hasText: slug }).getByText('1 πεδίο', { exact: true }).waitFor();
    await openRecords(slug);
    await expect.poll(() => rows().count()).toBe(3);
    expect(await headers()).toEqual(['Τίτλος', 'Ενέργειες']);
    expect(await page.getByText('Με σημειώσεις στο περιθώριο').count()).toBe(0);
    const res = await call(token, 'GET', `/api/custom-entities/${slug}/records?_sort=title`);
    const stored = ((await res.json()) as { data: Record<string, unknown>[] }).data;
    expect(stored.map((r) => r.title)).toEqual(['Αργοναυτικά', 'Ιλιάδα', 'Οδύσσεια']);
    expect(stored.some((r) => 'note' in r)).toBe(false);
  });

  it('an entity with records is deleted with them only after saying how many', async () => {
    const slug = `trips${n}`;
    const plural = `Εκδρομές ${n}`;
    const id = await defineEntity(slug, 'Εκδρομή', plural, [{ key: 'place', label_el: 'Προορισμός', type: 'TEXT', required: true }]);
    await addRecords(slug, [{ place: 'Δελφοί' }, { place: 'Μυκήνες' }, { place: 'Ολυμπία' }]);
    const listed = await call(token, 'GET', `/api/custom-entities/${slug}/records`);
    const before = ((await listed.json()) as { data: { id: number }[] }).data.map((r) => r.id);
    expect(before).toHaveLength(3);
    await signIn(root, '/custom-entities/');
    await sidebar().getByText(plural, { exact: true }).waitFor();
    const row = rows().filter({ hasText: slug });
    await row.getByRole('button', { name: 'Διαγραφή' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Διαγραφή' }).click();
    const asked = dialog(`Η οντότητα «Εκδρομή» έχει εγγραφές`);
    await asked.getByText('Υπάρχουν 3 εγγραφές αυτής της οντότητας. Να διαγραφεί η οντότητα μαζί με όλες τις εγγραφές της;', { exact: true }).waitFor();
    await asked.getByRole('button', { name: 'Διαγραφή μαζί με τις εγγραφές' }).click();
    await row.waitFor({ state: 'detached' });
    await sidebar().getByText(plural, { exact: true }).waitFor({ state: 'detached' });
    expect((await call(token, 'GET', `/api/custom-entities/${id}`)).status).toBe(404);
    expect((await call(token, 'GET', `/api/custom-entities/${slug}/records`)).status).toBe(404);
    // each record's deletion is in its history
    for (const record of before) {
      const history = await call(token, 'GET', `/api/history?entity=custom:${slug}&entity_id=${record}`);
      expect(((await history.json()) as { data: { action: string }[] }).data[0]?.action).toBe('delete');
    }
  });

  it("a student's tab of records pointing at her pages through them, 50 at a time", async () => {
    const slug = `absences${n}`;
    const plural = `Απουσίες ${n}`;
    await defineEntity(slug, 'Απουσία', plural, [
      { key: 'student', label_el: 'Μαθητής', type: 'REFERENCE', target: 'students', required: true },
      { key: 'seq', label_el: 'Α/Α', type: 'NUMBER' },
      { key: 'title', label_el: 'Θέμα', type: 'TEXT' },
    ]);
    const maria = (await post(token, '/api/students', { first_name: 'Μαρία', last_name: `Κωστοπούλου ${n}` })).id;
    const petros = (await post(token, '/api/students', { first_name: 'Πέτρος', last_name: `Δημητρίου ${n}` })).id;
    const nikos = (await post(token, '/api/students', { first_name: 'Νίκος', last_name: `Σταθόπουλος ${n}` })).id;
    const two = (i: number) => String(i).padStart(2, '0');
    await addRecords(slug, [
      ...Array.from({ length: 55 }, (_, i) => ({ student: maria, seq: i + 1, title: `Απουσία ${two(i + 1)}` })),
      { student: petros, seq: 1, title: 'Απουσία Πέτρου 1' },
      { student: petros, seq: 2, title: 'Απουσία Πέτρου 2' },
    ]);
    await signIn(root, `/students/?mode=view&student=${maria}`);

    const openTab = async (student: number, lastName: string) => {
      // the last student's view closed first, as the office does: her tabs would take the click
      if ((await drawer().count()) > 0) {
        await page.keyboard.press('Escape');
        await drawer().waitFor({ state: 'detached' });
      }
      await arriveAt(`/students/?mode=view&student=${student}`);
      await drawer().getByText(`${lastName} ${n}`).first().waitFor();
      await drawer().getByRole('tab', { name: plural }).click();
      return drawer().locator('.ant-tabs-tabpane-active');
    };
    const titles = (panel: Locator) => panel.locator('.ant-table-row').allInnerTexts();
    const footer = (panel: Locator) => panel.locator('.ant-pagination-total-text');

    const panel = await openTab(maria, 'Κωστοπούλου');
    await footer(panel).getByText('Εμφάνιση 1 έως 50 από 55 συνολικές εγγραφές', { exact: true }).waitFor();
    expect(await panel.locator('.ant-table-row').count()).toBe(50);
    // the student's own column is left out: every row is hers
    expect(await headers(panel)).toEqual(['Α/Α', 'Θέμα', 'Ενέργειες']);
    // sorted by the number, ascending
    await panel.getByRole('columnheader', { name: 'Α/Α' }).click();
    await expect.poll(async () => (await titles(panel))[0]).toContain('Απουσία 01');
    expect((await titles(panel))[49]).toContain('Απουσία 50');
    // page 2 has the rest
    await panel.locator('.ant-pagination-item[title="2"]').click();
    await footer(panel).getByText('Εμφάνιση 51 έως 55 από 55 συνολικές εγγραφές', { exact: true }).waitFor();
    await expect.poll(() => panel.locator('.ant-table-row').count()).toBe(5);
    expect((await titles(panel)).map((t) => t.match(/Απουσία \d+/)?.[0])).toEqual(['Απουσία 51', 'Απουσία 52', 'Απουσία 53', 'Απουσία 54', 'Απουσία 55']);
    // the page is the tab's own, not the address's (which belongs to the students list behind)
    expect(page.url()).not.toContain('current=2');

    const his = await openTab(petros, 'Δημητρίου');
    await footer(his).getByText('Εμφάνιση 1 έως 2 από 2 συνολικές εγγραφές', { exact: true }).waitFor();
    expect(await his.locator('.ant-table-row').count()).toBe(2);

    const none = await openTab(nikos, 'Σταθόπουλος');
    await none.getByText('Κανένα αποτέλεσμα.', { exact: true }).waitFor();
  });
});
