/**
 * A teacher's lessons as an iCalendar document (RFC 5545) for Google Calendar and Outlook.
 * Lessons are wall-clock times in the centre's zone; the feed states them in UTC, converted
 * with the zone's rules for that very date, so a subscriber anywhere sees the right hour on
 * both sides of a daylight-saving change.
 */
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

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and line breaks. */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

/** Lines longer than 75 octets continue on the next line after a space, never inside a UTF-8 character. */
export function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with the space
    if (bytes + size > limit) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const STATUS: Record<string, string> = { NORMAL: 'CONFIRMED', TO_BE_REPLACED: 'TENTATIVE', REPLACED: 'CANCELLED', CANCELED: 'CANCELLED' };

export function icalendar(opts: { name: string; slug: string; timeZone: string; lessons: readonly FeedLesson[]; now?: Date }): string {
  const now = stamp(opts.now ?? new Date());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Frontis//Lessons//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
  ];
  for (const l of opts.lessons) {
    const summary = [l.subject, l.class].filter(Boolean).join(' — ') || 'Lesson';
    const description = [l.homework, l.notes].filter((s): s is string => !!s && s.trim() !== '').join('\n\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:lesson-${l.id}@${opts.slug}.frontis`,
      `DTSTAMP:${now}`,
      `LAST-MODIFIED:${stamp(l.updated_at)}`,
      `SEQUENCE:${Math.max(0, l.version - 1)}`,
      `DTSTART:${stamp(wallClockToUtc(l.date, l.start_time, opts.timeZone))}`,
      `DTEND:${stamp(wallClockToUtc(l.date, l.end_time, opts.timeZone))}`,
      `SUMMARY:${escapeText(summary)}`,
      ...(l.room ? [`LOCATION:${escapeText(l.room)}`] : []),
      ...(description ? [`DESCRIPTION:${escapeText(description)}`] : []),
      `STATUS:${STATUS[l.status] ?? 'CONFIRMED'}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
