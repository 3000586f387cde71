// Steps the custom-entity browser tests share: signing in, finding the open drawer, the list's
// rows and the sidebar, and typing a field into the builder. They act on the test's current page.
import type { Page } from 'playwright-core';
import { chooseOption, signInAt } from './browser';
import { e2eServer } from './server';

interface BuilderField {
  key: string;
  el: string;
  en: string;
  /** The type as the builder names it in Greek ('Αριθμός'). */
  type: string;
}

export function customEntitySteps(tab: { page: Page }) {
  const baseUrl = e2eServer().baseUrl;
  const page = () => tab.page;
  /** The field card `index` of the builder. */
  const card = (index: number) => page().getByTestId(`entity-field-${index}`);
  return {
    /** Signs in and lands on `path`: one page load. */
    async signIn(who: { username: string; password: string }, path = '/') {
      await signInAt(page(), baseUrl, who.username, who.password, path);
    },
    drawer: () => page().locator('.ant-drawer-content:visible'),
    rows: () => page().locator('.ant-table-tbody .ant-table-row'),
    sidebar: () => page().locator('.ant-layout-sider'),
    card,
    /** Types field `index` into the builder (adding a card first unless it is the first). */
    async defineField(index: number, f: BuilderField) {
      if (index > 0) await page().getByRole('button', { name: 'Προσθήκη πεδίου' }).click();
      const scope = card(index);
      await scope.getByLabel('Κλειδί', { exact: true }).fill(f.key);
      await scope.getByLabel('Ετικέτα (ελληνικά)', { exact: true }).fill(f.el);
      await scope.getByLabel('Ετικέτα (αγγλικά)', { exact: true }).fill(f.en);
      await chooseOption(page(), scope, 'Τύπος', f.type);
    },
  };
}
