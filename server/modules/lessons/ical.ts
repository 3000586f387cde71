/**
 * A teacher's lessons as an iCalendar document (RFC 5545) for Google Calendar and Outlook.
 * Lessons are wall-clock times in the centre's zone; the feed states them in UTC, converted
 * with the zone's rules for that very date, so a subscriber anywhere sees the right hour on
 * both sides of a daylight-saving change.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

export interface FeedLesson {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: string;
  subject: string | null;
  class: string | null;
  room: string | null;
  homework: string | null;
  notes: string | null;
  version: number;
  updated_at: Date;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - instant;
}

/** The instant a wall-clock date and HH:mm name in a zone (a time skipped by the spring change moves on by the gap). */
export function wallClockToUtc(date: string, time: string, timeZone: string): Date {
  const wall = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), Number(time.slice(0, 2)), Number(time.slice(3, 5)));
  const guess = wall - zoneOffset(wall, timeZone);
  return new Date(wall - zoneOffset(guess, timeZone));
}

/** Today's date on the zone's wall clock. */
export function todayIn(timeZone: string, now = new Date()): string {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(now)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}`;
}

const STATUS: Record<string, ICalEventStatus> = {
  NORMAL: ICalEventStatus.CONFIRMED,
  TO_BE_REPLACED: ICalEventStatus.TENTATIVE,
  REPLACED: ICalEventStatus.CANCELLED,
  CANCELED: ICalEventStatus.CANCELLED,
};

/**
 * The feed document; ical-generator writes it (escaping, CRLF, folding at 75 octets). Times
 * go in as instants, so they come out in UTC and no VTIMEZONE is needed.
 */
export function icalendar(opts: { name: string; slug: string; timeZone: string; lessons: readonly FeedLesson[]; now?: Date }): string {
  const calendar = ical({
    name: opts.name,
    prodId: { company: 'Frontis', product: 'Lessons', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  const now = opts.now ?? new Date();
  for (const l of opts.lessons) {
    const description = [l.homework, l.notes].filter((s): s is string => !!s && s.trim() !== '').join('\n\n');
    calendar.createEvent({
      id: `lesson-${l.id}@${opts.slug}.frontis`,
      stamp: now,
      lastModified: l.updated_at,
      // Calendar apps take the newer copy of an event by its sequence: a row's version counts its changes.
      sequence: Math.max(0, l.version - 1),
      start: wallClockToUtc(l.date, l.start_time, opts.timeZone),
      end: wallClockToUtc(l.date, l.end_time, opts.timeZone),
      summary: [l.subject, l.class].filter(Boolean).join(' — ') || 'Lesson',
      location: l.room || null,
      description: description || null,
      status: STATUS[l.status] ?? ICalEventStatus.CONFIRMED,
    });
  }
  // RFC 5545 ends every line, the last one too, with CRLF.
  return `${calendar.toString()}\r\n`;
}
