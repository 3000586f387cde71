// The rules of lessons shared by server and client (domain/lessons.ts; docs/rules.md, Lessons to Status and replacement): series expansion with its limits, the status transitions, times.
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  canBeReplaced,
  canChangeStatus,
  checkTimes,
  expandRecurrence,
  isoWeekday,
  KIND,
  LESSON_STATUSES,
  LESSON_TRANSITIONS,
  MAX_OCCURRENCES,
  MAX_SERIES_YEARS,
  minutesOf,
  timesOverlap,
  type LessonStatus,
  type RecurrenceRule,
} from '../../domain';

const dates = (rule: RecurrenceRule) => {
  const r = expandRecurrence(rule);
  if (!r.ok) throw new Error(`expected dates, got ${JSON.stringify(r.fields)}`);
  return r.dates;
};
const refused = (rule: RecurrenceRule) => {
  const r = expandRecurrence(rule);
  if (r.ok) throw new Error(`expected a refusal, got ${r.dates.length} dates`);
  return r.fields;
};

describe('expandRecurrence: DAILY', () => {
  it('every day, AFTER n', () => {
    expect(dates({ repeat: 'DAILY', start_date: '2026-01-30', end_type: 'AFTER', occurrences: 4 })).toEqual([
      '2026-01-30',
      '2026-01-31',
      '2026-02-01',
      '2026-02-02',
    ]);
  });
  it('every N days, AFTER n and ON_DATE (the end date included when it falls on the rhythm)', () => {
    expect(dates({ repeat: 'DAILY', repeat_every: 3, start_date: '2026-02-26', end_type: 'AFTER', occurrences: 3 })).toEqual([
      '2026-02-26',
      '2026-03-01',
      '2026-03-04',
    ]);
    expect(dates({ repeat: 'DAILY', repeat_every: 2, start_date: '2026-03-01', end_type: 'ON_DATE', until_date: '2026-03-07' })).toEqual([
      '2026-03-01',
      '2026-03-03',
      '2026-03-05',
      '2026-03-07',
    ]);
    expect(dates({ repeat: 'DAILY', repeat_every: 2, start_date: '2026-03-01', end_type: 'ON_DATE', until_date: '2026-03-06' })).toEqual([
      '2026-03-01',
      '2026-03-03',
      '2026-03-05',
    ]);
    expect(dates({ repeat: 'DAILY', start_date: '2026-03-01', end_type: 'ON_DATE', until_date: '2026-03-01' })).toEqual(['2026-03-01']);
  });
  it('crosses a leap day and the year end', () => {
    expect(dates({ repeat: 'DAILY', start_date: '2028-02-28', end_type: 'AFTER', occurrences: 3 })).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(dates({ repeat: 'DAILY', start_date: '2026-12-31', end_type: 'AFTER', occurrences: 2 })).toEqual(['2026-12-31', '2027-01-01']);
  });
  it('the normalised rule keeps what DAILY uses and drops the rest', () => {
    const r = expandRecurrence({
      repeat: 'DAILY',
      start_date: '2026-03-01',
      end_type: 'AFTER',
      occurrences: 2,
      weekdays: [1, 2],
      until_date: '2026-05-01',
      dates: ['2026-03-02'],
    });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.rule).toEqual({
        repeat: 'DAILY',
        repeat_every: 1,
        weekdays: null,
        start_date: '2026-03-01',
        end_type: 'AFTER',
        occurrences: 2,
        until_date: null,
        dates: null,
      });
    }
  });
});

describe('expandRecurrence: WEEKLY', () => {
  it('by default on the weekday of start_date', () => {
    const d = dates({ repeat: 'WEEKLY', start_date: '2026-09-16', end_type: 'AFTER', occurrences: 3 });
    expect(d).toEqual(['2026-09-16', '2026-09-23', '2026-09-30']);
    expect(d.map(isoWeekday)).toEqual([3, 3, 3]);
  });
  it('on chosen weekdays, in date order whatever order they are given in', () => {
    expect(dates({ repeat: 'WEEKLY', weekdays: [5, 1, 3], start_date: '2026-09-14', end_type: 'AFTER', occurrences: 5 })).toEqual([
      '2026-09-14',
      '2026-09-16',
      '2026-09-18',
      '2026-09-21',
      '2026-09-23',
    ]);
  });
  it('weekdays before start_date in its first week are left out', () => {
    // start on Wednesday 2026-09-16; Monday 2026-09-14 is before it
    expect(dates({ repeat: 'WEEKLY', weekdays: [1, 3], start_date: '2026-09-16', end_type: 'AFTER', occurrences: 3 })).toEqual([
      '2026-09-16',
      '2026-09-21',
      '2026-09-23',
    ]);
  });
  it('every 2 weeks, counted from the week of start_date', () => {
    expect(dates({ repeat: 'WEEKLY', repeat_every: 2, weekdays: [2, 4], start_date: '2026-09-15', end_type: 'ON_DATE', until_date: '2026-10-15' })).toEqual([
      '2026-09-15',
      '2026-09-17',
      '2026-09-29',
      '2026-10-01',
      '2026-10-13',
      '2026-10-15',
    ]);
    // starting on Thursday: that week's Tuesday is skipped, the rhythm still counts from that week
    expect(dates({ repeat: 'WEEKLY', repeat_every: 2, weekdays: [2, 4], start_date: '2026-09-17', end_type: 'AFTER', occurrences: 3 })).toEqual([
      '2026-09-17',
      '2026-09-29',
      '2026-10-01',
    ]);
  });
  it('Sunday is 7: a Sunday series stays on Sundays across month ends', () => {
    const d = dates({ repeat: 'WEEKLY', weekdays: [7], start_date: '2026-05-25', end_type: 'AFTER', occurrences: 3 });
    expect(d).toEqual(['2026-05-31', '2026-06-07', '2026-06-14']);
  });
  it('the normalised rule sorts and de-duplicates weekdays, defaults them and keeps until_date only for ON_DATE', () => {
    const r = expandRecurrence({
      repeat: 'WEEKLY',
      weekdays: [4, 2, 4],
      start_date: '2026-09-15',
      end_type: 'ON_DATE',
      until_date: '2026-09-30',
      occurrences: 7,
    });
    expect(r.ok && r.rule).toEqual({
      repeat: 'WEEKLY',
      repeat_every: 1,
      weekdays: [2, 4],
      start_date: '2026-09-15',
      end_type: 'ON_DATE',
      occurrences: null,
      until_date: '2026-09-30',
      dates: null,
    });
    const d = expandRecurrence({ repeat: 'WEEKLY', weekdays: [], start_date: '2026-09-15', end_type: 'AFTER', occurrences: 1 });
    expect(d.ok && d.rule.weekdays).toEqual([2]);
  });
  it('the daylight-saving week: a weekly Tuesday series across the last Sunday of October stays on Tuesdays, whatever the process zone', () => {
    const before = process.env.TZ;
    for (const tz of ['UTC', 'Europe/Athens', 'America/New_York', 'Pacific/Chatham']) {
      process.env.TZ = tz;
      try {
        const d = dates({ repeat: 'WEEKLY', start_date: '2026-10-13', end_type: 'ON_DATE', until_date: '2026-11-17' });
        expect(d, tz).toEqual(['2026-10-13', '2026-10-20', '2026-10-27', '2026-11-03', '2026-11-10', '2026-11-17']);
        expect(d.map(isoWeekday), tz).toEqual([2, 2, 2, 2, 2, 2]);
        // and the spring change (last Sunday of March)
        const spring = dates({ repeat: 'DAILY', start_date: '2026-03-28', end_type: 'AFTER', occurrences: 3 });
        expect(spring, tz).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    }
  });
});

describe('expandRecurrence: CUSTOM', () => {
  it('the hand-picked dates, sorted and de-duplicated; the rule drops rhythm and end', () => {
    const r = expandRecurrence({
      repeat: 'CUSTOM',
      start_date: '2026-09-01',
      dates: ['2026-10-05', '2026-09-01', '2026-09-20', '2026-10-05'],
      end_type: 'AFTER',
      occurrences: 9,
      weekdays: [1],
    });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.dates).toEqual(['2026-09-01', '2026-09-20', '2026-10-05']);
      expect(r.rule).toEqual({
        repeat: 'CUSTOM',
        repeat_every: null,
        weekdays: null,
        start_date: '2026-09-01',
        end_type: null,
        occurrences: null,
        until_date: null,
        dates: ['2026-09-01', '2026-09-20', '2026-10-05'],
      });
    }
  });
  it('refuses no dates, dates before start_date, past two years, more than 500', () => {
    expect(refused({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: [] })).toEqual({ dates: 'required' });
    expect(refused({ repeat: 'CUSTOM', start_date: '2026-09-01' })).toEqual({ dates: 'required' });
    expect(refused({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: ['2026-08-31', '2026-09-02'] })).toEqual({ dates: 'too-small' });
    expect(dates({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: ['2028-09-01'] })).toEqual(['2028-09-01']);
    expect(refused({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: ['2028-09-02'] })).toEqual({ dates: 'too-large' });
    const many = Array.from({ length: MAX_OCCURRENCES + 1 }, (_, i) => addDays('2026-09-01', i));
    expect(refused({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: many })).toEqual({ dates: 'too-long' });
    expect(dates({ repeat: 'CUSTOM', start_date: '2026-09-01', dates: many.slice(0, MAX_OCCURRENCES) })).toHaveLength(MAX_OCCURRENCES);
  });
});

describe('expandRecurrence: how a series ends', () => {
  it('end_type is required for DAILY and WEEKLY, and each end needs its value', () => {
    expect(refused({ repeat: 'DAILY', start_date: '2026-09-01' })).toEqual({ end_type: 'required' });
    expect(refused({ repeat: 'WEEKLY', start_date: '2026-09-01', end_type: null })).toEqual({ end_type: 'required' });
    expect(refused({ repeat: 'DAILY', start_date: '2026-09-01', end_type: 'AFTER' })).toEqual({ occurrences: 'required' });
    expect(refused({ repeat: 'DAILY', start_date: '2026-09-01', end_type: 'AFTER', occurrences: 0 })).toEqual({ occurrences: 'required' });
    expect(refused({ repeat: 'WEEKLY', start_date: '2026-09-01', end_type: 'ON_DATE' })).toEqual({ until_date: 'required' });
    expect(refused({ repeat: 'WEEKLY', start_date: '2026-09-01', end_type: 'ON_DATE', until_date: '2026-08-31' })).toEqual({ until_date: 'too-small' });
  });
  it('a rule that yields no date is refused on until_date', () => {
    // Tuesday to Saturday of one week, Mondays only
    expect(refused({ repeat: 'WEEKLY', weekdays: [1], start_date: '2026-09-15', end_type: 'ON_DATE', until_date: '2026-09-19' })).toEqual({
      until_date: 'too-small',
    });
  });
  it(`at most ${MAX_OCCURRENCES} occurrences`, () => {
    expect(dates({ repeat: 'DAILY', start_date: '2026-01-01', end_type: 'AFTER', occurrences: MAX_OCCURRENCES })).toHaveLength(MAX_OCCURRENCES);
    expect(refused({ repeat: 'DAILY', start_date: '2026-01-01', end_type: 'AFTER', occurrences: MAX_OCCURRENCES + 1 })).toEqual({ occurrences: 'too-large' });
    // ON_DATE within two years but more than 500 days
    expect(refused({ repeat: 'DAILY', start_date: '2026-01-01', end_type: 'ON_DATE', until_date: '2027-06-01' })).toEqual({ until_date: 'too-large' });
    // weekly on all seven days: 500 fit in 72 weeks, 501 do not
    expect(dates({ repeat: 'WEEKLY', weekdays: [1, 2, 3, 4, 5, 6, 7], start_date: '2026-01-05', end_type: 'AFTER', occurrences: 500 })).toHaveLength(500);
    expect(refused({ repeat: 'WEEKLY', weekdays: [1, 2, 3, 4, 5, 6, 7], start_date: '2026-01-05', end_type: 'ON_DATE', until_date: '2027-06-01' })).toEqual({
      until_date: 'too-large',
    });
  });
  it(`never past ${MAX_SERIES_YEARS} years from start_date`, () => {
    const ok = dates({ repeat: 'WEEKLY', start_date: '2026-01-01', end_type: 'ON_DATE', until_date: '2028-01-01' });
    expect(ok[0]).toBe('2026-01-01');
    expect(ok[ok.length - 1]).toBe('2027-12-30');
    expect(refused({ repeat: 'WEEKLY', start_date: '2026-01-01', end_type: 'ON_DATE', until_date: '2028-01-02' })).toEqual({ until_date: 'too-large' });
    // 200 weekly lessons need almost four years
    expect(refused({ repeat: 'WEEKLY', start_date: '2026-01-01', end_type: 'AFTER', occurrences: 200 })).toEqual({ occurrences: 'too-large' });
    // every 4 weeks, 27 fit in two years, 28 do not
    expect(dates({ repeat: 'WEEKLY', repeat_every: 4, start_date: '2026-01-01', end_type: 'AFTER', occurrences: 27 })).toHaveLength(27);
    expect(refused({ repeat: 'WEEKLY', repeat_every: 4, start_date: '2026-01-01', end_type: 'AFTER', occurrences: 28 })).toEqual({ occurrences: 'too-large' });
    // the horizon of a 29 February start is 28 February
    expect(addYears('2028-02-29', 2)).toBe('2030-02-28');
    expect(dates({ repeat: 'DAILY', repeat_every: 365, start_date: '2028-02-29', end_type: 'ON_DATE', until_date: '2030-02-28' })).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
    ]);
    expect(refused({ repeat: 'DAILY', start_date: '2028-02-29', end_type: 'ON_DATE', until_date: '2030-03-01' })).toEqual({ until_date: 'too-large' });
  });
});

describe('date helpers', () => {
  it('addDays, isoWeekday, addYears are calendar arithmetic', () => {
    expect(addDays('2026-10-24', 1)).toBe('2026-10-25');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isoWeekday('2026-11-22')).toBe(7);
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(addYears('2026-09-01', 2)).toBe('2028-09-01');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
  });
});

describe('status transitions (docs/rules.md, Status and replacement)', () => {
  const allowed: Record<LessonStatus, LessonStatus[]> = {
    NORMAL: ['TO_BE_REPLACED', 'CANCELED'],
    TO_BE_REPLACED: ['CANCELED'],
    REPLACED: [],
    CANCELED: ['NORMAL'],
  };
  it('LESSON_TRANSITIONS is exactly the table of ', () => {
    expect(Object.keys(LESSON_TRANSITIONS).sort()).toEqual([...LESSON_STATUSES].sort());
    for (const from of LESSON_STATUSES) expect([...LESSON_TRANSITIONS[from]].sort(), from).toEqual([...allowed[from]].sort());
  });
  const pairs = LESSON_STATUSES.flatMap((from) => LESSON_STATUSES.map((to) => ({ from, to, ok: from === to || allowed[from].includes(to) })));
  it.each(pairs)('$from -> $to: $ok', ({ from, to, ok }) => {
    expect(canChangeStatus(from, to)).toBe(ok);
  });
  it('only TO_BE_REPLACED can be replaced; kinds are 1, 2, 3', () => {
    expect(LESSON_STATUSES.filter(canBeReplaced)).toEqual(['TO_BE_REPLACED']);
    expect(KIND).toEqual({ NORMAL: 1, REPLACEMENT: 2, REPLACED: 3 });
  });
});

describe('times (docs/rules.md, Lessons and Conflicts)', () => {
  it('checkTimes: end after start on the same day', () => {
    expect(checkTimes('17:00', '18:00')).toEqual({});
    expect(checkTimes('00:00', '23:59')).toEqual({});
    expect(checkTimes('17:00', '17:01')).toEqual({});
    expect(checkTimes('17:00', '17:00')).toEqual({ end_time: 'too-small' });
    expect(checkTimes('18:00', '17:00')).toEqual({ end_time: 'too-small' });
    expect(checkTimes('23:30', '00:30')).toEqual({ end_time: 'too-small' });
    // missing values are the validator's business, not this rule's
    expect(checkTimes(undefined, '17:00')).toEqual({});
    expect(checkTimes('17:00', null)).toEqual({});
  });
  it('minutesOf', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('17:45')).toBe(17 * 60 + 45);
    expect(minutesOf('23:59')).toBe(1439);
  });
  const lesson = (start_time: string, end_time: string) => ({ start_time, end_time });
  it.each([
    ['17:00', '18:00', '18:00', '19:00', false],
    ['17:00', '18:00', '16:00', '17:00', false],
    ['17:00', '18:00', '17:59', '19:00', true],
    ['17:00', '18:00', '16:00', '17:01', true],
    ['17:00', '18:00', '17:00', '18:00', true],
    ['17:00', '18:00', '17:15', '17:45', true],
    ['17:00', '18:00', '16:00', '19:00', true],
    ['09:00', '10:00', '11:00', '12:00', false],
  ] as const)('timesOverlap(%s–%s, %s–%s) = %s, both ways', (a1, a2, b1, b2, overlap) => {
    expect(timesOverlap(lesson(a1, a2), lesson(b1, b2))).toBe(overlap);
    expect(timesOverlap(lesson(b1, b2), lesson(a1, a2))).toBe(overlap);
  });
});
