import type { Browser, Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { fillSignIn, openInApp, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { contextOptions } from '../../bench/chromium';
import { e2eServer } from './server';

// The calendar day to day, in Greek, in a real Chromium against the real server: a month's
// cell lists several lessons before "+N more", which opens the day; lessons side by side in a
// week show their whole times, at a desk and on a phone; a teacher's open calendar and lesson
// follow the office's move of her lesson without a reload; the lesson form keeps what was
// typed when someone else saved first; the focus is visible on every sidebar link and field.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const calendarOf = (p: Page) => p.getByTestId('lesson-calendar');
const settled = (p: Page) => p.locator('[data-testid="lesson-calendar"][data-loading="false"]').waitFor();
const drawerOf = (p: Page, title: string) => p.locator('.ant-drawer-content').filter({ has: p.locator('.ant-drawer-title').getByText(title, { exact: true }) });

/** A day of its own for each test, years ahead, where no other test puts lessons. */
function ownDay(offset: number): string {
  const n = (Date.now() + offset * 7_919) % 1_500;
  const d = new Date(Date.UTC(2033, 0, 5) + n * 86_400_000);
  // a Wednesday: the week around it is Monday to Sunday whatever the locale's first day
  d.setUTCDate(d.getUTCDate() + ((3 - d.getUTCDay() + 7) % 7));
  return d.toISOString().slice(0, 10);
}

/** Signs in and lands on `path` (the calendar unless told): one page load. */
async function signIn(p: Page, username: string, password: string, path = '/') {
  await signInAt(p, baseUrl, username, password, path);
}

type View = 'day' | 'week' | 'month';
/** Keeps `date` in `view` as the calendar remembers it for the tab: it opens there next time. */
const remember = (p: Page, view: View, date: string) =>
  p.evaluate(([v, d]) => sessionStorage.setItem('frontis.calendar', JSON.stringify({ view: v, date: d })), [view, date] as const);

/** Waits for the calendar in `view`, drawn. */
async function calendarIn(p: Page, view: View) {
  await p.locator(`[data-testid="lesson-calendar"][data-view="${view}"]`).waitFor();
  await settled(p);
}

/** Opens the calendar on `date` in `view`, as the calendar remembers it for the tab (a page load). */
async function openCalendar(p: Page, view: View, date: string) {
  await remember(p, view, date);
  await p.goto(`${baseUrl}/`);
  await calendarIn(p, view);
}

/** Signs in through the form, the calendar remembered on `date` in `view`: it opens there, one page load in all. */
async function signInToCalendar(p: Page, user: { username: string; password: string }, view: View, date: string) {
  await p.goto(`${baseUrl}/login`);
  await remember(p, view, date);
  await fillSignIn(p, user.username, user.password);
  await p.waitForURL(`${baseUrl}/`);
  await calendarIn(p, view);
}

async function secretary(token: string, tag: string) {
  const user = { username: `${tag}${Date.now() % 1_000_000}`, password: 'secretary-password-1' };
  await post(token, '/api/users', { ...user, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέως' });
  return user;
}

/** The lesson's start and end as the server holds them. */
async function held(token: string, id: number) {
  const res = await call(token, 'GET', `/api/lessons/${id}`);
  const { data } = (await res.json()) as { data: { start_time: string; end_time: string; notes: string | null; homework: string | null } };
  return { ...data, time: `${data.start_time.slice(0, 5)}–${data.end_time.slice(0, 5)}` };
}

/** Each of `ids`' events: its times as drawn, and whether they are wholly inside the event's box. */
function drawnTimes(p: Page, ids: number[]) {
  return calendarOf(p)
    .locator('.rbc-event')
    .evaluateAll(
      (events, wanted) =>
        events
          .map((e) => {
            const body = e.querySelector<HTMLElement>('[data-lesson-id]');
            const time = e.querySelector<HTMLElement>('.lesson-event-time');
            if (!body || !time || !wanted.includes(Number(body.dataset.lessonId))) return null;
            const box = e.getBoundingClientRect();
            // the text's own boxes (a line each when it wraps), not the element's
            const range = document.createRange();
            range.selectNodeContents(time);
            const lines = [...range.getClientRects()];
            const inside = lines.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5);
            return { id: Number(body.dataset.lessonId), time: time.textContent?.trim(), inside, width: Math.round(box.width) };
          })
          .filter((e) => e !== null),
      ids,
    );
}

describe('the calendar’s month and week', () => {
  it('a month’s day lists several lessons, then "+N more" opens that day', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const date = ownDay(1);
    const user = await secretary(token, 'minas');
    const { id: subjectId } = await post(token, '/api/subjects', { name: `Μήνας ${n}`, color: '#1677ff' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const start = `${String(9 + i).padStart(2, '0')}:00`;
      const end = `${String(10 + i).padStart(2, '0')}:00`;
      ids.push((await post(token, '/api/lessons', { date, start_time: start, end_time: end, subject_id: subjectId })).id);
    }
    await signInToCalendar(page, user, 'month', date);

    // several of the six on compact lines, each wholly inside its week's row
    const mine = calendarOf(page).locator(ids.map((id) => `[data-lesson-id="${id}"]`).join(', '));
    // (the calendar measures how many lines fit after its first paint: wait until the lines
    // shown and the "+N" beside them account for all six)
    const moreButton = calendarOf(page).getByRole('button', { name: /^\+\d+ ακόμη$/ });
    const hidden = async () => ((await moreButton.count()) ? Number(/\d+/.exec((await moreButton.first().textContent()) ?? '')?.[0]) : 0);
    await expect.poll(async () => (await mine.count()) + (await hidden())).toBe(6);
    const shown = await mine.count();
    // several a day, not one (a month of six weeks leaves each row room for two or more)
    expect(shown).toBeGreaterThanOrEqual(2);
    expect(shown).toBeLessThan(6);
    const clipped = await mine.evaluateAll(
      (bodies) =>
        bodies.filter((b) => {
          const row = b.closest('.rbc-month-row')!.getBoundingClientRect();
          const box = b.closest('.rbc-event')!.getBoundingClientRect();
          return box.bottom > row.bottom + 0.5 || box.top < row.top;
        }).length,
    );
    expect(clipped).toBe(0);
    // the first line reads the times and the title
    expect(await mine.first().textContent()).toContain(`09:00–10:00 Μήνας ${n}`);

    // "+N more" counts the rest and opens the day with all six
    const more = calendarOf(page).getByRole('button', { name: `+${6 - shown} ακόμη` });
    await more.click();
    await page.locator('[data-testid="lesson-calendar"][data-view="day"]').waitFor();
    await settled(page);
    await expect.poll(() => mine.count()).toBe(6);
    expect(await page.locator('.rbc-toolbar-label').textContent()).toContain(String(Number(date.slice(8, 10))));
  });

  it('lessons side by side in a week show their whole times, at a desk and on a 390 px phone', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const date = ownDay(2);
    const user = await secretary(token, 'evdomada');
    const ids: number[] = [];
    for (const [name, color] of [
      ['Άλγεβρα', '#1677ff'],
      ['Φυσική', '#722ed1'],
      ['Χημεία', '#13c2c2'],
    ] as const) {
      const { id: subjectId } = await post(token, '/api/subjects', { name: `${name} ${n}`, color });
      ids.push((await post(token, '/api/lessons', { date, start_time: '15:00', end_time: '16:00', subject_id: subjectId })).id);
    }
    await signInToCalendar(page, user, 'week', date);

    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      // the desk signed in on it; the phone opens it afresh at its own width
      if (width < 1400) await openCalendar(page, 'week', date);
      await expect.poll(async () => (await drawnTimes(page, ids)).length).toBe(3);
      const drawn = await drawnTimes(page, ids);
      for (const e of drawn) expect(e, `${width} px`).toMatchObject({ time: '15:00–16:00', inside: true });
      // the page itself never scrolls sideways
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
    }
  });
});

describe('a teacher’s open calendar', () => {
  it('moves her lesson when the office moves it, and her open lesson shows the new time, without a reload', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const date = ownDay(3);
    const teacher = { username: `zontani${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Ελένη',
      last_name: `Ζωντανή ${n}`,
    });
    const { id: subjectId } = await post(token, '/api/subjects', { name: `Βιολογία ${n}`, color: '#52c41a' });
    const { id } = await post(token, '/api/lessons', { date, start_time: '15:00', end_time: '16:00', teacher_id: teacherId, subject_id: subjectId });
    const office = await secretary(token, 'grafeio');

    // the teacher: her week, and the lesson open beside it
    await signInToCalendar(page, teacher, 'week', date);
    await expect.poll(async () => (await drawnTimes(page, [id]))[0]?.time).toBe('15:00–16:00');
    await openInApp(page, `/?mode=view&lesson=${id}`);
    const view = drawerOf(page, 'Διδασκαλία');
    await view.getByText('15:00', { exact: false }).first().waitFor();
    const before = (await view.getByTestId('lesson-view').textContent()) ?? '';
    expect(before).toContain('15:00');
    expect(before).not.toContain('17:00');

    // the secretary, in a browser of her own, moves it to 17:00–18:00 by its form
    const browser = page.context().browser() as Browser;
    const other = await browser.newContext(contextOptions({ width: 1400, height: 900 }));
    try {
      const desk = await other.newPage();
      desk.setDefaultTimeout(15_000);
      await signIn(desk, office.username, office.password, `/?mode=update&lesson=${id}`);
      const edit = drawerOf(desk, 'Επεξεργασία διδασκαλίας');
      await whollyOnScreen(desk, edit);
      await expect.poll(() => edit.getByLabel('Από', { exact: true }).inputValue()).toBe('15:00');
      for (const [label, value] of [
        ['Έως', '18:00'],
        ['Από', '17:00'],
      ] as const) {
        await edit.getByLabel(label, { exact: true }).click();
        await desk.keyboard.press('Control+A');
        await desk.keyboard.type(value);
        await desk.keyboard.press('Enter');
      }
      await edit.getByRole('button', { name: 'Αποθήκευση' }).click();
      await desk.getByText('Η διδασκαλία αποθηκεύτηκε.').waitFor();
      expect((await held(token, id)).time).toBe('17:00–18:00');
    } finally {
      await other.close();
    }

    // the teacher's screen follows, no reload: the open lesson, then the calendar behind it
    await expect.poll(async () => (await view.getByTestId('lesson-view').textContent()) ?? '', { timeout: 15_000 }).toContain('17:00');
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.search.includes('mode='));
    await expect.poll(async () => (await drawnTimes(page, [id]))[0]?.time, { timeout: 15_000 }).toBe('17:00–18:00');
  }, 120_000);
});

describe('the lesson form on a stale save', () => {
  it('keeps what was typed and "keep mine" saves it over the other tab’s version', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const user = await secretary(token, 'dyokarteles');
    const { id: subjectId } = await post(token, '/api/subjects', { name: `Ιστορία ${n}`, color: '#fa8c16' });
    const { id } = await post(token, '/api/lessons', { date: ownDay(4), start_time: '10:00', end_time: '11:00', subject_id: subjectId });
    // this tab signs in to the lesson's form, the other opens its link afresh
    const editPath = `/?mode=update&lesson=${id}`;
    await signIn(page, user.username, user.password, editPath);
    const other = await page.context().newPage();

    const openEdit = async (p: Page): Promise<Locator> => {
      await p.bringToFront(); // a background tab gets no animation frames: its drawer would not slide in
      if (p !== page) await p.goto(`${baseUrl}${editPath}`);
      const edit = drawerOf(p, 'Επεξεργασία διδασκαλίας');
      await whollyOnScreen(p, edit);
      await expect.poll(() => edit.getByLabel('Από', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('10:00');
      return edit;
    };
    const mine = await openEdit(page);
    const theirs = await openEdit(other);

    // this tab types notes; the other one writes homework and saves first
    await page.bringToFront();
    await mine.getByLabel('Σημειώσεις', { exact: true }).fill(`Φέρτε χάρτη ${n}`);
    await other.bringToFront();
    await theirs.getByLabel('Εργασία για το σπίτι', { exact: true }).fill('Κεφάλαιο 3');
    await theirs.getByRole('button', { name: 'Αποθήκευση' }).click();
    await other.getByText('Η διδασκαλία αποθηκεύτηκε.').waitFor();
    expect((await held(token, id)).homework).toBe('Κεφάλαιο 3');

    // this tab's save is refused: the choice, and the notes stay typed
    await page.bringToFront();
    await mine.getByRole('button', { name: 'Αποθήκευση' }).click();
    const stale = page.locator('.ant-modal-confirm', { hasText: 'Κάποιος άλλος άλλαξε αυτή την εγγραφή' });
    await stale.getByText('Οι τιμές που πληκτρολογήσατε κρατήθηκαν.').waitFor();
    await page.waitForTimeout(1500);
    expect(await mine.getByLabel('Σημειώσεις', { exact: true }).inputValue()).toBe(`Φέρτε χάρτη ${n}`);

    // compare names the fields that differ, in Greek, mine beside theirs
    await stale.getByRole('button', { name: 'Σύγκριση' }).click();
    const homework = stale.getByRole('row', { name: /Εργασία για το σπίτι/ });
    await homework.getByRole('cell', { name: 'Κεφάλαιο 3', exact: true }).waitFor();
    await stale
      .getByRole('row', { name: /Σημειώσεις/ })
      .getByRole('cell', { name: `Φέρτε χάρτη ${n}`, exact: true })
      .waitFor();

    // keep mine: my values are saved over theirs
    await stale.getByRole('button', { name: 'Κράτηση των δικών μου' }).click();
    await page.getByText('Η διδασκαλία αποθηκεύτηκε.').waitFor();
    await page.waitForURL((url) => !url.search.includes('mode='));
    const saved = await held(token, id);
    expect(saved.notes).toBe(`Φέρτε χάρτη ${n}`);
    expect(saved.homework).toBeNull();
  }, 120_000);

  it('keeps what was typed in a series and "keep mine" saves it over the other tab’s version', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const user = await secretary(token, 'seirakarteles');
    const { id: subjectId } = await post(token, '/api/subjects', { name: `Λατινικά ${n}`, color: '#eb2f96' });
    const start = ownDay(5);
    const { id } = await post(token, '/api/recurring-lessons', {
      start_time: '12:00',
      end_time: '13:00',
      subject_id: subjectId,
      repeat: 'WEEKLY',
      repeat_every: 1,
      weekdays: [3],
      start_date: start,
      end_type: 'AFTER',
      occurrences: 3,
    });
    const editPath = `/lessons/?mode=bulk_update&recurring_lesson=${id}`;
    await signIn(page, user.username, user.password, editPath);
    const other = await page.context().newPage();
    const openEdit = async (p: Page): Promise<Locator> => {
      await p.bringToFront();
      if (p !== page) await p.goto(`${baseUrl}${editPath}`);
      const edit = drawerOf(p, 'Επεξεργασία σειράς');
      await whollyOnScreen(p, edit);
      await expect.poll(() => edit.getByLabel('Από', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('12:00');
      return edit;
    };
    const mine = await openEdit(page);
    const theirs = await openEdit(other);

    await page.bringToFront();
    await mine.getByLabel('Σημειώσεις', { exact: true }).fill(`Λεξικό ${n}`);
    await other.bringToFront();
    await theirs.getByLabel('Σημειώσεις', { exact: true }).fill('Τετράδιο');
    await theirs.getByRole('button', { name: 'Αποθήκευση' }).click();
    await other.getByText(/Η σειρά αποθηκεύτηκε/).waitFor();

    await page.bringToFront();
    await mine.getByRole('button', { name: 'Αποθήκευση' }).click();
    const stale = page.locator('.ant-modal-confirm', { hasText: 'Κάποιος άλλος άλλαξε αυτή την εγγραφή' });
    await stale.getByText('Οι τιμές που πληκτρολογήσατε κρατήθηκαν.').waitFor();
    await page.waitForTimeout(1500);
    expect(await mine.getByLabel('Σημειώσεις', { exact: true }).inputValue()).toBe(`Λεξικό ${n}`);
    await stale.getByRole('button', { name: 'Σύγκριση' }).click();
    const notes = stale.getByRole('row', { name: /Σημειώσεις/ });
    await notes.getByRole('cell', { name: 'Τετράδιο', exact: true }).waitFor();
    await notes.getByRole('cell', { name: `Λεξικό ${n}`, exact: true }).waitFor();

    await stale.getByRole('button', { name: 'Κράτηση των δικών μου' }).click();
    await page.getByText(/Η σειρά αποθηκεύτηκε/).waitFor();
    const res = await call(token, 'GET', `/api/recurring-lessons/${id}`);
    expect(((await res.json()) as { data: { notes: string | null } }).data.notes).toBe(`Λεξικό ${n}`);
  }, 120_000);
});

describe('the focus', () => {
  /** Whether the focused element, or the box antd draws around it, shows a ring or a glow that stands out. */
  const focusShown = (p: Page) =>
    p.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return { what: 'nothing', shown: false };
      // a ring counts when its colour stands out of what is behind it by at least 3:1 (WCAG 1.4.11)
      const colours = (text: string) =>
        [...text.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
          const [r = 0, g = 0, b = 0, a = 1] = m[1]!
            .split(/[\s,/]+/)
            .filter(Boolean)
            .map(Number);
          return [r, g, b, a] as const;
        });
      const luminance = (c: readonly number[]) => {
        const f = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
      };
      const behind = (el: Element) => {
        for (let e = el.parentElement; e; e = e.parentElement) {
          const [c] = colours(getComputedStyle(e).backgroundColor);
          if (c && c[3] > 0) return c;
        }
        return [255, 255, 255, 1] as const;
      };
      const standsOut = (ring: readonly number[], ground: readonly number[]) => {
        const seen = [0, 1, 2].map((i) => ring[i]! * ring[3]! + ground[i]! * (1 - ring[3]!));
        const [hi, lo] = [luminance(seen), luminance(ground)].sort((x, y) => y - x);
        return (hi! + 0.05) / (lo! + 0.05) >= 3;
      };
      const marks = (el: Element | null) => {
        if (!el) return false;
        const s = getComputedStyle(el);
        const ground = behind(el);
        const outlined = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0 && colours(s.outlineColor).some((c) => standsOut(c, ground));
        return outlined || (s.boxShadow !== 'none' && colours(s.boxShadow).some((c) => standsOut(c, ground)));
      };
      // antd draws a field's focus on its wrapper (a select's or picker's box), a checkbox's on the box beside its input
      const candidates: Array<Element | null> = [active, active.nextElementSibling];
      for (let el = active.parentElement; el && !el.classList.contains('ant-form-item-control-input'); el = el.parentElement) candidates.push(el);
      const what = `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? active.id ?? ''} ${active.textContent?.trim().slice(0, 30) ?? ''}`;
      return { what, shown: candidates.some(marks) };
    });

  it('shows on every sidebar link and every field of a drawer reached by Tab', async () => {
    const token = await rootToken();
    const user = await secretary(token, 'estiasi');
    await signIn(page, user.username, user.password);
    await settled(page);

    // the sidebar: every link Tab reaches shows it
    const inSider = () => page.evaluate(() => document.activeElement?.closest('.ant-layout-sider') != null);
    const links = new Set<string>();
    for (let i = 0; i < 150 && !(links.size && !(await inSider())); i++) {
      await page.keyboard.press('Tab');
      if (!(await inSider())) continue;
      const focus = await focusShown(page);
      // antd fades a ring in: it must be there within a moment
      if (!focus.shown) await expect.poll(async () => (await focusShown(page)).shown, { message: focus.what, timeout: 1000 }).toBe(true);
      links.add(focus.what);
    }
    expect(links.size).toBeGreaterThanOrEqual(5);

    // a drawer's fields, from the first to Save
    await openInApp(page, '/?mode=create');
    const create = drawerOf(page, 'Νέα διδασκαλία');
    await whollyOnScreen(page, create);
    await create.getByLabel('Ημερομηνία', { exact: true }).focus();
    const fields = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const focus = await focusShown(page);
      const inDrawer = await page.evaluate(() => document.activeElement?.closest('.ant-drawer-content') != null);
      if (inDrawer) {
        if (!focus.shown) await expect.poll(async () => (await focusShown(page)).shown, { message: focus.what, timeout: 1000 }).toBe(true);
        fields.add(focus.what);
      }
      if (focus.what.startsWith('button') && focus.what.includes('Αποθήκευση')) break;
      await page.keyboard.press('Tab');
    }
    expect([...fields].some((f) => f.includes('Αποθήκευση'))).toBe(true);
    expect(fields.size).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
