import dayjs from 'dayjs';
import 'dayjs/locale/el';
import updateLocale from 'dayjs/plugin/updateLocale';
import { dayjsLocalizer, type DateLocalizer, type Formats, type Messages } from 'react-big-calendar';
import type { Translate } from '../../providers/i18nProvider';

// Weeks start on Monday in both languages (the centre is in Greece); dayjs's 'el' already does.
dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 1 });

export const localizer = dayjsLocalizer(dayjs);
speedUp(localizer);

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
const hm = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const range = ({ start, end }: { start: Date; end: Date }) => `${hm(start)} – ${hm(end)}`;

/** 24-hour times and day-first dates, whatever the language. */
export const FORMATS: Formats = {
  timeGutterFormat: 'HH:mm',
  eventTimeRangeFormat: range,
  eventTimeRangeStartFormat: ({ start }) => `${hm(start)} – `,
  eventTimeRangeEndFormat: ({ end }) => ` – ${hm(end)}`,
  selectRangeFormat: range,
  agendaTimeFormat: 'HH:mm',
  agendaTimeRangeFormat: range,
  agendaDateFormat: 'ddd DD/MM',
  dayFormat: 'ddd DD/MM',
  weekdayFormat: 'dddd',
  dayHeaderFormat: 'dddd DD/MM/YYYY',
  monthHeaderFormat: 'MMMM YYYY',
  dayRangeHeaderFormat: ({ start, end }) => `${dayjs(start).format('DD/MM')} – ${dayjs(end).format('DD/MM/YYYY')}`,
  agendaHeaderFormat: ({ start, end }) => `${dayjs(start).format('DD/MM/YYYY')} – ${dayjs(end).format('DD/MM/YYYY')}`,
};

type Unit = string | undefined;
type Compare = (a: Date, b: Date, unit?: Unit) => boolean;

/**
 * The dayjs localizer builds dayjs objects for every comparison: with a thousand lessons in a
 * week that was a third of the render. Lessons sit within one day in local wall-clock time, so
 * the comparisons the time grid makes per event (by millisecond, minute and day) are done on
 * native Dates here; any other unit goes to dayjs as before.
 */
function speedUp(l: DateLocalizer) {
  const slow = { startOf: l.startOf, eq: l.eq, neq: l.neq, lt: l.lt, lte: l.lte, gt: l.gt, gte: l.gte, inRange: l.inRange };
  const floor = (d: Date, unit: Unit): number | null => {
    const u = unit?.toLowerCase();
    if (!u || u === 'milliseconds') return +d;
    if (u === 'minutes' || u === 'minute') return Math.floor(+d / 60_000) * 60_000;
    if (u === 'day') return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    return null;
  };
  const compare =
    (name: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte', test: (x: number, y: number) => boolean): Compare =>
    (a, b, unit) => {
      const x = floor(new Date(a), unit);
      const y = floor(new Date(b), unit);
      return x === null || y === null ? (slow[name] as Compare)(a, b, unit) : test(x, y);
    };
  l.eq = compare('eq', (x, y) => x === y);
  l.neq = compare('neq', (x, y) => x !== y);
  l.lt = compare('lt', (x, y) => x < y);
  l.lte = compare('lte', (x, y) => x <= y);
  l.gt = compare('gt', (x, y) => x > y);
  l.gte = compare('gte', (x, y) => x >= y);
  l.startOf = ((date: Date, unit?: Unit, firstOfWeek?: number) => {
    const x = floor(new Date(date), unit);
    return x === null ? (slow.startOf as (d: Date, u?: Unit, f?: number) => Date)(date, unit, firstOfWeek) : new Date(x);
  }) as DateLocalizer['startOf'];
  l.inRange = ((day: Date, min: Date, max: Date, unit: Unit = 'day') => {
    const d = floor(new Date(day), unit);
    const a = floor(new Date(min), unit);
    const b = floor(new Date(max), unit);
    return d === null || a === null || b === null ? (slow.inRange as (d: Date, a: Date, b: Date, u?: Unit) => boolean)(day, min, max, unit) : d >= a && d <= b;
  }) as DateLocalizer['inRange'];
  const dayOf = (d: Date) => floor(d, 'day')!;
  l.isSameDate = (a: Date, b: Date) => dayOf(new Date(a)) === dayOf(new Date(b));
  l.getMinutesFromMidnight = (d: Date) => d.getHours() * 60 + d.getMinutes();
  l.getTotalMin = (a: Date, b: Date) => Math.trunc((+b - +a) / 60_000);
  l.continuesPrior = (start: Date, first: Date) => dayOf(new Date(start)) < dayOf(new Date(first));
  l.continuesAfter = (_start: Date, end: Date, last: Date) => Math.floor(+end / 60_000) >= Math.floor(+last / 60_000);
  // whole calendar days between two local dates (dayjs's diff in days, zone-aware)
  const daySpan = (a: Date, b: Date) => Math.round((dayOf(new Date(b)) - dayOf(new Date(a))) / 86_400_000);
  (l as DateLocalizer & { daySpan(a: Date, b: Date): number }).daySpan = daySpan;
  type Span = { start: Date; end: Date; allDay?: boolean };
  // two more of react-big-calendar's hooks, which its DateLocalizer type does not name
  const open: Record<string, unknown> = l as DateLocalizer & Record<string, unknown>;
  open.sortEvents = ({ evtA, evtB }: { evtA: Span; evtB: Span }) =>
    dayOf(new Date(evtA.start)) - dayOf(new Date(evtB.start)) ||
    daySpan(new Date(evtB.start), new Date(evtB.end)) - daySpan(new Date(evtA.start), new Date(evtA.end)) ||
    Number(!!evtB.allDay) - Number(!!evtA.allDay) ||
    +new Date(evtA.start) - +new Date(evtB.start) ||
    +new Date(evtA.end) - +new Date(evtB.end);
  open.inEventRange = ({ event, range }: { event: Span; range: { start: Date; end: Date } }) => {
    const startDay = dayOf(new Date(event.start));
    const end = Math.floor(+new Date(event.end) / 60_000);
    const rangeStart = Math.floor(+new Date(range.start) / 60_000);
    const startsBeforeEnd = startDay <= dayOf(new Date(range.end));
    const zeroLength = Math.floor(startDay / 60_000) === end;
    return startsBeforeEnd && (zeroLength ? end >= rangeStart : end > rangeStart);
  };
}

export function messages(t: Translate): Messages {
  return {
    today: t('calendar.today'),
    previous: t('calendar.previous'),
    next: t('calendar.next'),
    month: t('calendar.month'),
    week: t('calendar.week'),
    day: t('calendar.day'),
    agenda: t('calendar.agenda'),
    date: t('lessons.fields.date'),
    time: t('lessons.fields.time'),
    event: t('lessons.view'),
    allDay: t('calendar.allDay'),
    noEventsInRange: t('calendar.noLessons'),
    showMore: (count: number) => t('calendar.showMore', { count }),
  };
}

export type CalendarView = 'day' | 'week' | 'month';
export const VIEWS: CalendarView[] = ['day', 'week', 'month'];

/** The dates the calendar shows for a view and date: what the API is asked for (at most 42 days). */
export function visibleRange(view: CalendarView, date: Date): { from: string; to: string } {
  const d = dayjs(date).startOf('day');
  const monday = (x: dayjs.Dayjs) => x.subtract((x.day() + 6) % 7, 'day');
  if (view === 'day') return { from: d.format('YYYY-MM-DD'), to: d.format('YYYY-MM-DD') };
  if (view === 'week') {
    const start = monday(d);
    return { from: start.format('YYYY-MM-DD'), to: start.add(6, 'day').format('YYYY-MM-DD') };
  }
  const first = monday(d.startOf('month'));
  const lastOfMonth = d.endOf('month').startOf('day');
  const last = monday(lastOfMonth).add(6, 'day');
  return { from: first.format('YYYY-MM-DD'), to: last.format('YYYY-MM-DD') };
}
