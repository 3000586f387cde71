// What a notification is about, shared by the server (which creates them and renders their
// text for e-mail) and the client (which renders the same kind and params in the reader's
// language, from the locale files' `notifications.kinds.<kind>`).

export const NOTIFICATION_KINDS = [
  // to the lesson's teacher
  'lesson-created',
  'lesson-moved',
  'lesson-canceled',
  'lesson-to-be-replaced',
  'series-created',
  // a change to many lessons at once ("all" or "this and following"), one per teacher
  'series-moved',
  'series-canceled',
  'series-added',
  'series-to-be-replaced',
  'series-changed',
  // to ADMIN and SECRETARY
  'lesson-waiting',
  'lesson-still-waiting',
  'series-waiting',
  // written before months were grouped (one per contract and month); still read and shown
  'month-unpaid',
  // a month some contracts still owe after the 10th: one per centre and month
  'months-unpaid',
  // to ADMIN: AADE refused a receipt's myDATA document
  'receipt-refused',
  // a student marked absent (to ADMIN and SECRETARY)
  'student-absent',
  // a message to a family given up after its last attempt (to ADMIN)
  'outbox-failed',
  // to a guardian with a portal sign-in, beside the e-mail the family gets: her child marked
  // absent, a reminder of unpaid months, a receipt issued to her
  'child-absent',
  'fees-due',
  'receipt-issued',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Params are display values already (dates DD/MM/YYYY, times HH:mm), the same in every language. */
export type NotificationParams = Record<string, string | number>;

export const lessonLink = (lessonId: number) => `/?mode=view&lesson=${lessonId}`;
/** Where a notification about lessons that no longer exist leads: the calendar. */
export const calendarLink = '/';
/** Where a guardian's notifications lead in the portal: her child's attendance, contracts, or her receipts. */
export const portalAttendanceLink = (childId: number) => `/portal/attendance?child=${childId}`;
export const portalContractsLink = (childId: number) => `/portal/contracts?child=${childId}`;
export const portalReceiptsLink = '/portal/receipts';
/** The contracts list filtered by a month still unpaid (YYYY-MM), as the list keeps its filters in the address. */
export const unpaidListLink = (month: string) => `/contracts/?filters[0][field]=unpaid_month&filters[0][operator]=eq&filters[0][value]=${month}`;

/** 2026-11-24 -> 24/11/2026; 2026-11 -> 11/2026. */
export function displayDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return d ? `${d}/${m}/${y}` : `${m}/${y}`;
}

/** The day of the month after which an unpaid month is reported. */
export const UNPAID_AFTER_DAY = 10;

/** How many days before its date a lesson still waiting for a replacement is reported again. */
export const STILL_WAITING_DAYS = 2;

/** How far back the scheduled job looks (catching up after downtime without flooding a new install with old history). */
export const CATCH_UP_MONTHS = 2;

/** `{{name}}` placeholders filled from params (the subset of i18next's syntax the texts use). */
export const interpolate = (text: string, params: NotificationParams) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => (params[name] === undefined ? '' : String(params[name])));
