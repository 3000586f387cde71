// A family set up through the real API for the portal's browser tests: two children in two
// classes, their mother with portal access (so the server e-mails her an invitation), a lesson
// of each child today with homework, the first child marked absent, and a paid month of the
// second child's contract with its receipt.
import { expect, vi } from 'vitest';
import { call, JSON_HEADERS, mailbox, post, rootToken } from './api';
import { e2eServer } from './server';

/** Today in the centre's time zone, YYYY-MM-DD. */
export const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

interface PortalFamily {
  email: string;
  children: { id: number; first_name: string; last_name: string }[];
  /** The subject of the first child's lesson, where she was absent. */
  absentIn: string;
  /** What the second child's receipt says it pays for, and its amount as shown. */
  receiptAmount: string;
}

export async function portalFamily(tag: string): Promise<PortalFamily> {
  const token = await rootToken();
  const n = Date.now() % 100_000;
  const teacher = await post(token, '/api/teachers', {
    username: `${tag}teacher${n}`,
    password: 'teacher-password-1',
    confirm_password: 'teacher-password-1',
    first_name: 'Μαρίνα',
    last_name: `Καθηγήτρια ${n}`,
  });
  const absentIn = `Φυσική ${tag} ${n}`;
  const subject = await post(token, '/api/subjects', { name: absentIn, color: '#2f54eb' });
  const other = await post(token, '/api/subjects', { name: `Έκθεση ${tag} ${n}`, color: '#eb2f96' });
  const classA = await post(token, '/api/classes', { name: `Α΄ Γυμνασίου ${tag} ${n}` });
  const classB = await post(token, '/api/classes', { name: `Γ΄ Δημοτικού ${tag} ${n}` });
  const last = `Παπαδοπούλου ${n}`;
  const first = await post(token, '/api/students', { first_name: 'Ελπίδα', last_name: last, class_ids: [classA.id] });
  const second = await post(token, '/api/students', { first_name: 'Νικηφόρος', last_name: last, class_ids: [classB.id] });
  const email = `${tag}.mama.${n}@example.gr`;
  await post(token, '/api/guardians', {
    first_name: 'Σοφία',
    last_name: last,
    relation: 'MOTHER',
    email,
    notify: true,
    portal: true,
    student_ids: [first.id, second.id],
  });
  const date = today();
  const lessonA = await post(token, '/api/lessons', {
    date,
    start_time: '08:00',
    end_time: '09:00',
    teacher_id: teacher.id,
    subject_id: subject.id,
    class_id: classA.id,
    homework: 'Ασκήσεις 3 και 4',
  });
  await post(token, '/api/lessons', { date, start_time: '09:00', end_time: '10:00', teacher_id: teacher.id, subject_id: other.id, class_id: classB.id });
  const marked = await call(token, 'PUT', `/api/lessons/${lessonA.id}/attendance`, { marks: [{ student_id: first.id, status: 'ABSENT' }] });
  expect(marked.status, await marked.clone().text()).toBe(200);
  const month = date.slice(0, 7);
  const contract = await post(token, '/api/contracts', {
    student_id: second.id,
    start_date: `${month}-01`,
    end_date: `${Number(month.slice(0, 4)) + 1}-06-30`,
    register_cost: 0,
    month_cost: 9_850,
    with_receipt: true,
  });
  await post(token, '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month, amount: 9_850, method: 'CASH', paid_on: date });
  return {
    email,
    children: [
      { id: first.id, first_name: 'Ελπίδα', last_name: last },
      { id: second.id, first_name: 'Νικηφόρος', last_name: last },
    ],
    absentIn,
    receiptAmount: '98,50 €',
  };
}

/** The invitation's path (/invitation?token=…), read from the link in the e-mail she received. */
export async function invitationPath(email: string): Promise<string> {
  // waited for with vi.waitFor, which a suite's setup may use too (expect.poll only inside a test)
  const mail = await vi.waitFor(
    () => {
      const found = mailbox().find((m) => m.to.includes(email));
      if (!found) throw new Error(`no invitation for ${email} yet`);
      return found;
    },
    { timeout: 30_000, interval: 200 },
  );
  expect(mail.subject).toContain('Πρόσκληση στην πύλη γονέων');
  const link = /https?:\/\/\S+\/invitation\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeDefined();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** Accepts her invitation through the API (for tests about what comes after): her password. */
export async function acceptInvitation(email: string, password: string): Promise<void> {
  const token = new URLSearchParams((await invitationPath(email)).split('?')[1]).get('token');
  const res = await fetch(`${e2eServer().apiBase}/api/invitation`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ token, password }) });
  expect(res.status, await res.clone().text()).toBe(204);
}
