import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../domain/lessons';
import { JSON_HEADERS, post, rootToken } from './api';
import { chooseOption, openInApp, submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The calendar in Greek, in a real Chromium against the real server: a weekly lesson created
// by selecting a slot, seen in the week and month views, one instance marked to be replaced and
// given its replacement, both statuses visible, and the conflict named when a room is booked twice.
const baseUrl = e2eServer().baseUrl;
const apiBase = e2eServer().apiBase;

const tab = useBrowserTab({ width: 1500, height: 1000 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

/** A SECRETARY and what a lesson needs (teacher, subject, class, rooms), named uniquely, created as ROOT. */
async function centre() {
  const token = await rootToken();
  const n = Date.now() % 100_000;
  const user = { username: `grammateia${n}`, password: 'secretary-password-1' };
  await post(token, '/api/users', { ...user, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέως' });
  const names = { teacher: `Ζαχαρίου ${n}`, other: `Ρήγα ${n}`, subject: `Λατινικά ${n}`, class: `Γ Λυκείου ${n}`, room: `Αίθουσα ${n}` };
  for (const [username, last] of [
    [`zacharioy${n}`, names.teacher],
    [`riga${n}`, names.other],
  ]) {
    await post(token, '/api/teachers', {
      username,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Ελένη',
      last_name: last,
    });
  }
  await post(token, '/api/subjects', { name: names.subject, color: '#722ed1' });
  await post(token, '/api/classes', { name: names.class });
  await post(token, '/api/rooms', { name: names.room, capacity: 12 });
  return { user, names };
}

async function signIn(username: string, password: string) {
  await submitSignIn(page, baseUrl, username, password);
  await page.waitForURL(`${baseUrl}/`);
}

// Exact titles: "Διδασκαλία" would otherwise also match "Νέα διδασκαλία".
const drawer = (title: string) => page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });

/** The drawer titled `title`, once it has slid in (its position no longer changes). */
async function opened(title: string): Promise<Locator> {
  const found = drawer(title);
  await found.waitFor();
  let last = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify(await found.boundingBox());
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
  return found;
}
const calendar = () => page.getByTestId('lesson-calendar');
const settled = () => page.locator('[data-testid="lesson-calendar"][data-loading="false"]').waitFor();
/** The calendar's lessons whose text includes `text`. */
const lessons = (text: string) => calendar().locator('[data-lesson-id]', { hasText: text });

/** Picks `option` in the antd Select of the form item labelled `label`. */
const choose = (scope: Locator, label: string, option: string) => chooseOption(page, scope, label, option);

/** Types `time` into the picker labelled `label` and confirms it with Enter, as a keyboard user does; the field then shows it. */
async function setTime(scope: Locator, label: string, time: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(time);
  await page.keyboard.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(time);
}

/** Drags over today's column in the week view from hour `from` to hour `to` (the grid starts at 08:00). */
async function selectHours(from: number, to: number) {
  const today = new Date();
  const column = page.locator('.rbc-time-content > .rbc-day-slot').nth((today.getDay() + 6) % 7);
  const first = (await column
    .locator('.rbc-timeslot-group')
    .nth(from - 8)
    .boundingBox())!;
  const last = (await column
    .locator('.rbc-timeslot-group')
    .nth(to - 9)
    .boundingBox())!;
  // The column's right edge: lessons are drawn from its left.
  const x = first.x + first.width - 4;
  await page.mouse.move(x, first.y + 3);
  await page.mouse.down();
  await page.mouse.move(x, first.y + first.height / 2, { steps: 5 });
  await page.mouse.move(x, last.y + last.height - 3, { steps: 5 });
  await page.mouse.up();
}

const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The dates a month view of `today`'s month shows: whole weeks, Monday first. */
function monthGrid(today: string) {
  const first = `${today.slice(0, 8)}01`;
  const nextMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 1)).toISOString().slice(0, 10);
  const last = addDays(nextMonth, -1);
  return { from: addDays(first, 1 - isoWeekday(first)), to: addDays(last, 7 - isoWeekday(last)) };
}

describe('the calendar', () => {
  it('a weekly lesson from a slot, its instances in week and month, a replacement, and a conflict', async () => {
    const { user, names } = await centre();
    await signIn(user.username, user.password);
    await settled();

    // Select 17:00–18:00 today: the create drawer opens with the slot in the URL and the form.
    await selectHours(17, 18);
    await page.waitForURL(/mode=create/);
    const url = new URL(page.url());
    const today = localDate(new Date());
    expect(url.searchParams.get('start')).toBe(`${today}T17:00`);
    expect(url.searchParams.get('end')).toBe(`${today}T18:00`);
    const create = await opened('Νέα διδασκαλία');
    await expect(create.getByLabel('Από', { exact: true }).inputValue()).resolves.toBe('17:00');
    await expect(create.getByLabel('Έως', { exact: true }).inputValue()).resolves.toBe('18:00');
    await choose(create, 'Καθηγητής', names.teacher);
    await choose(create, 'Μάθημα', names.subject);
    await choose(create, 'Τμήμα', names.class);
    await choose(create, 'Αίθουσα', names.room);
    await create.getByLabel('Επαναλαμβανόμενη διδασκαλία').click();
    await choose(create, 'Επανάληψη', 'Εβδομαδιαία');
    await choose(create, 'Λήξη', 'Μετά από αριθμό διδασκαλιών');
    await create.getByLabel('Αριθμός διδασκαλιών', { exact: true }).fill('4');
    await expect(create.getByTestId('series-preview').textContent()).resolves.toContain('Θα δημιουργηθούν 4 διδασκαλίες');
    await create.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Δημιουργήθηκαν 4 διδασκαλίες.').waitFor();

    // Week view: today's instance; month view: every instance inside the month's grid.
    await settled();
    await lessons(names.subject).first().waitFor();
    expect(await lessons(names.subject).count()).toBe(1);
    await page.getByRole('button', { name: 'Μήνας' }).click();
    await settled();
    const grid = monthGrid(today);
    const shown = [0, 7, 14, 21].map((d) => addDays(today, d)).filter((d) => d >= grid.from && d <= grid.to).length;
    await expect.poll(() => lessons(names.subject).count()).toBe(shown);
    await page.getByRole('button', { name: 'Εβδομάδα' }).click();
    await settled();

    // Mark today's lesson to be replaced.
    await lessons(names.subject).first().click();
    await page.waitForURL(/mode=view&lesson=\d+/);
    const original = Number(new URL(page.url()).searchParams.get('lesson'));
    const view = await opened('Διδασκαλία');
    await view.getByRole('button', { name: 'Σήμανση ως αναπληρωμένη' }).click();
    await view.locator('[data-status="TO_BE_REPLACED"]', { hasText: 'Προς αναπλήρωση' }).waitFor();

    // Its replacement, the same day at 19:00–20:00 in the same room.
    await view.getByRole('button', { name: 'Δημιουργία αναπλήρωσης' }).click();
    const replacement = await opened('Νέα αναπλήρωση');
    await setTime(replacement, 'Από', '19:00');
    await setTime(replacement, 'Έως', '20:00');
    await expect(replacement.getByLabel('Από', { exact: true }).inputValue()).resolves.toBe('19:00');
    await replacement.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Η αναπλήρωση δημιουργήθηκε.').waitFor();

    // Both statuses on the calendar: the original replaced, the new lesson a replacement.
    await settled();
    await calendar().locator(`[data-lesson-id="${original}"][data-status="REPLACED"]`).waitFor();
    const added = calendar().locator('[data-lesson-id][data-kind="2"]', { hasText: names.subject });
    await added.waitFor();
    await added.click();
    await drawer('Διδασκαλία').getByText('Αναπλήρωση', { exact: true }).first().waitFor();
    await openInApp(page, `/?mode=view&lesson=${original}`);
    await drawer('Διδασκαλία').locator('[data-status="REPLACED"]', { hasText: 'Αναπληρώθηκε' }).waitFor();
    await page.keyboard.press('Escape');

    // Booking the room again from 18:00 to 20:00 names the replacement (19:00–20:00) in the way.
    await openInApp(page, '/');
    await settled();
    await selectHours(18, 20);
    await page.waitForURL(new RegExp(`start=${today}T18%3A00&end=${today}T20%3A00|start=${today}T18:00&end=${today}T20:00`));
    const again = await opened('Νέα διδασκαλία');
    await choose(again, 'Καθηγητής', names.other);
    await choose(again, 'Αίθουσα', names.room);
    await again.getByRole('button', { name: 'Αποθήκευση' }).click();
    const conflict = again.getByTestId('lesson-conflicts');
    await conflict.waitFor();
    const text = await conflict.textContent();
    expect(text).toContain('Η ώρα είναι ήδη κρατημένη από:');
    expect(text).toContain('ίδια αίθουσα');
    expect(text).toContain(names.subject);
    expect(text).toContain('19:00');
  });

  it("draws every lesson of the week the server holds: its time, labels, status and the type's colour", async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = await post(token, '/api/teachers', {
      username: `zografou${n}`,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Άρτεμις',
      last_name: `Ζωγράφου ${n}`,
    });
    const subject = await post(token, '/api/subjects', { name: `Γεωμετρία ${n}`, color: '#13c2c2' });
    const klass = await post(token, '/api/classes', { name: `Α Λυκείου ${n}` });
    const room = await post(token, '/api/rooms', { name: `Αίθουσα Σχεδίου ${n}`, capacity: 8 });
    const type = await post(token, '/api/lesson-types', { name: `Θεωρία ${n}`, color: '#fa8c16', entity: 'NORMAL' });
    const today = localDate(new Date());
    const full = { date: today, teacher_id: teacher.id, subject_id: subject.id, class_id: klass.id, room_id: room.id, lesson_type_id: type.id };
    await post(token, '/api/lessons', { ...full, start_time: '08:00', end_time: '09:00' });
    const marked = await post(token, '/api/lessons', { ...full, start_time: '09:00', end_time: '10:30' });
    const cancelled = await post(token, '/api/lessons', { date: today, start_time: '11:00', end_time: '12:00', subject_id: subject.id });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${apiBase}${path}`, {
        method,
        headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      return (await res.json()) as { data: Record<string, any>[] };
    };
    await api('PATCH', `/api/lessons/${marked.id}`, { status: 'TO_BE_REPLACED', version: 1 });
    await api('PATCH', `/api/lessons/${cancelled.id}`, { status: 'CANCELED', version: 1 });

    const { user } = await centre();
    const asked = page.waitForResponse((r) => r.url().includes('/api/lessons/calendar?') && r.status() === 200);
    await signIn(user.username, user.password);
    const range = new URL((await asked).url()).searchParams;
    await settled();
    expect(await calendar().getAttribute('data-view')).toBe('week');

    // What the server holds for the week, as full lesson rows (not the calendar's compact answer).
    const held = (await api('GET', `/api/lessons?date_gte=${range.get('from')}&date_lte=${range.get('to')}&_end=200`)).data;
    expect(held.length).toBeLessThan(200);
    expect(held.map((l) => l.id)).toEqual(expect.arrayContaining([marked.id, cancelled.id]));
    const status: Record<string, string> = { TO_BE_REPLACED: 'Προς αναπλήρωση', REPLACED: 'Αναπληρώθηκε', CANCELED: 'Ακυρώθηκε' };
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    await expect.poll(() => calendar().locator('[data-lesson-id]').count()).toBe(held.length);
    const drawn = await calendar()
      .locator('.rbc-event')
      .evaluateAll((events) =>
        events.map((e) => {
          const body = e.querySelector<HTMLElement>('[data-lesson-id]')!;
          return {
            id: Number(body.dataset.lessonId),
            status: body.dataset.status,
            kind: Number(body.dataset.kind),
            text: body.textContent,
            title: e.getAttribute('title'),
            colour: (e as HTMLElement).style.backgroundColor,
          };
        }),
      );
    const want = held.map((l) => {
      const title = `${l.subject?.name ?? 'Χωρίς μάθημα'}${l.class?.name ? ` — ${l.class.name}` : ''}`;
      const detail = [l.teacher?.name ?? (l.teacher?.deleted ? 'Διαγραμμένος καθηγητής' : null), l.room?.name].filter(Boolean).join(' · ');
      const badge = [status[l.status], l.kind === 2 ? 'Αναπλήρωση' : undefined].filter(Boolean).join(' · ');
      const text = [`${l.start_time}–${l.end_time} ${title}`, detail, badge].filter(Boolean).join('\n');
      return {
        id: l.id,
        status: l.status,
        kind: l.kind,
        text,
        colour: l.status === 'CANCELED' || l.status === 'REPLACED' ? rgb('#bfbfbf') : rgb(l.color ?? '#1677ff'),
      };
    });
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect(drawn.map(({ title: _, ...e }) => e).sort(byId)).toEqual(want.sort(byId));
    // the tooltip says the same
    for (const e of drawn) expect(e.title?.endsWith(e.text ?? '-'), `${e.id}: ${e.title}`).toBe(true);
    // the three lessons made here, as a person reads them
    expect(drawn.find((e) => e.id === marked.id)).toMatchObject({
      status: 'TO_BE_REPLACED',
      text: `09:00–10:30 Γεωμετρία ${n} — Α Λυκείου ${n}\nΆρτεμις Ζωγράφου ${n} · Αίθουσα Σχεδίου ${n}\nΠρος αναπλήρωση`,
      colour: 'rgb(250, 140, 22)',
    });
    expect(drawn.find((e) => e.id === cancelled.id)).toMatchObject({ status: 'CANCELED', text: `11:00–12:00 Γεωμετρία ${n}\nΑκυρώθηκε` });

    // The lesson waiting for a replacement is listed in the calendar's "to be replaced" drawer.
    await page.getByTestId('to-be-replaced-button').click();
    const waiting = await opened('Διδασκαλίες προς αναπλήρωση');
    await waiting.locator(`[data-lesson-id="${marked.id}"]`, { hasText: `Γεωμετρία ${n}` }).waitFor();
  });

  it('a TEACHER sees only own lessons and edits their homework; the office moves one by dragging, cancels, restores and deletes it', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `kathigitis${n}`, password: 'teacher-password-1' };
    const mine = await post(token, '/api/teachers', { ...teacher, confirm_password: teacher.password, first_name: 'Νίκος', last_name: `Αλεξίου ${n}` });
    const other = await post(token, '/api/teachers', {
      username: `allos${n}`,
      password: teacher.password,
      confirm_password: teacher.password,
      first_name: 'Άλλη',
      last_name: `Καθηγήτρια ${n}`,
    });
    const subjects = { mine: `Φυσική ${n}`, other: `Χημεία ${n}` };
    const physics = await post(token, '/api/subjects', { name: subjects.mine, color: '#1677ff' });
    const chemistry = await post(token, '/api/subjects', { name: subjects.other, color: '#52c41a' });
    const today = localDate(new Date());
    await post(token, '/api/lessons', { date: today, start_time: '10:00', end_time: '11:00', teacher_id: mine.id, subject_id: physics.id });
    await post(token, '/api/lessons', { date: today, start_time: '10:00', end_time: '11:00', teacher_id: other.id, subject_id: chemistry.id });

    // The teacher: own lesson only, no booking, homework only.
    await signIn(teacher.username, teacher.password);
    await settled();
    await lessons(subjects.mine).waitFor();
    expect(await lessons(subjects.other).count()).toBe(0);
    await lessons(subjects.mine).click();
    const view = await opened('Διδασκαλία');
    expect(await view.getByRole('button', { name: 'Διαγραφή' }).count()).toBe(0);
    expect(await view.getByRole('button', { name: 'Επεξεργασία', exact: true }).count()).toBe(0);
    await view.getByRole('button', { name: 'Επεξεργασία εργασίας' }).click();
    await view.getByLabel('Εργασία για το σπίτι').fill('Ασκήσεις 1 έως 5, σελίδα 42');
    await view.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Η εργασία ενημερώθηκε με επιτυχία').waitFor();
    // The form closes and the lesson's details show the saved homework.
    await view.getByRole('textbox', { name: 'Εργασία για το σπίτι' }).waitFor({ state: 'detached' });
    await view.locator('.ant-descriptions').getByText('Ασκήσεις 1 έως 5, σελίδα 42').waitFor();

    // The office (the teacher's session dropped first): drag the lesson to about noon today.
    const { user } = await centre();
    await page.context().clearCookies();
    await page.evaluate('localStorage.clear()');
    await signIn(user.username, user.password);
    await settled();
    const event = lessons(subjects.mine);
    await event.waitFor();
    const from = (await event.boundingBox())!;
    const column = page.locator('.rbc-time-content > .rbc-day-slot').nth((new Date().getDay() + 6) % 7);
    const noon = (await column
      .locator('.rbc-timeslot-group')
      .nth(12 - 8)
      .boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + 4);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + 20, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, noon.y + 4, { steps: 10 });
    await page.mouse.up();
    await page.getByText('Η διδασκαλία μετακινήθηκε.').waitFor();
    await settled();
    // Stored as moved (later the same day, still an hour), and drawn at the stored time.
    const id = await lessons(subjects.mine).getAttribute('data-lesson-id');
    const stored = (await (await fetch(`${apiBase}/api/lessons/${id}`, { headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` } })).json()) as {
      data: { date: string; start_time: string; end_time: string };
    };
    expect(stored.data.date).toBe(today);
    expect(stored.data.start_time > '10:00').toBe(true);
    expect(
      Number(stored.data.end_time.slice(0, 2)) * 60 +
        Number(stored.data.end_time.slice(3)) -
        (Number(stored.data.start_time.slice(0, 2)) * 60 + Number(stored.data.start_time.slice(3))),
    ).toBe(60);
    await expect.poll(async () => (await lessons(subjects.mine).textContent()) ?? '').toContain(`${stored.data.start_time}–${stored.data.end_time}`);

    // Cancel (confirmed), restore, delete (confirmed).
    await lessons(subjects.mine).click();
    const office = await opened('Διδασκαλία');
    await office.getByRole('button', { name: 'Ακύρωση διδασκαλίας' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: 'Ακύρωση διδασκαλίας' }).click();
    await office.locator('[data-status="CANCELED"]', { hasText: 'Ακυρώθηκε' }).waitFor();
    await office.getByRole('button', { name: 'Επαναφορά' }).click();
    await office.locator('[data-status="NORMAL"]', { hasText: 'Κανονικό' }).waitFor();
    await office.getByRole('button', { name: 'Διαγραφή' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: 'Διαγραφή' }).click();
    await page.getByText('Η διδασκαλία διαγράφηκε με επιτυχία.').waitFor();
    await settled();
    await expect.poll(() => lessons(subjects.mine).count()).toBe(0);
  });
});
