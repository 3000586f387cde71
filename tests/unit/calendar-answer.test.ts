import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALENDAR_COLUMNS,
  CALENDAR_LABELS,
  decodeCalendar,
  type CalendarAnswer,
  type CalendarLabel,
  type CalendarLabelName,
  type CalendarLesson,
} from '../../domain/calendar';
import { LESSON_STATUSES } from '../../domain/enums';
import { toEvent } from '../../src/pages/calendar/events';

// The calendar's compact answer (a row of values per lesson, each label once) decoded by the
// client: the lessons come back with their labels, and the calendar draws from them the same
// titles, times, colours, statuses and tooltips as from full lesson rows.

type Tree = { [key: string]: string | Tree };
const merge = (into: Tree, from: Tree): Tree => {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    into[key] = typeof value === 'object' && typeof existing === 'object' ? merge(existing, value) : value;
  }
  return into;
};
/** The Greek texts, all files merged as the client merges them. */
const greek = readdirSync(join(__dirname, '../../src/locales/el')).reduce(
  (tree, file) => merge(tree, JSON.parse(readFileSync(join(__dirname, '../../src/locales/el', file), 'utf8')) as Tree),
  {} as Tree,
);
const t = (key: string) => {
  const found = key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), greek);
  if (typeof found !== 'string') throw new Error(`no Greek text for ${key}`);
  return found;
};

/** A week as the server writes it: two lessons share a teacher, a room and a type; one has none. */
const ANSWER: CalendarAnswer = {
  columns: [...CALENDAR_COLUMNS],
  rows: [
    [101, 3, '2027-02-01', '09:30', '10:15', 'NORMAL', 1, 7, 2, 4, 9, 5, 40, null, false],
    [102, 1, '2027-02-01', '14:00', '15:30', 'TO_BE_REPLACED', 1, 7, 3, 4, null, 5, 40, null, true],
    [103, 2, '2027-02-02', '14:00', '15:30', 'NORMAL', 2, 8, 3, null, 9, 6, null, 102, false],
    [104, 1, '2027-02-03', '07:00', '08:00', 'CANCELED', 1, null, null, null, null, null, null, null, false],
    [105, 1, '2027-02-03', '18:00', '19:00', 'REPLACED', 3, 11, 2, 4, 9, 5, null, null, false],
  ],
  labels: {
    teacher: { '7': { name: 'Μαρία Παπαδοπούλου' }, '8': { name: 'Νίκος Αλεξίου' }, '11': { name: null, deleted: true } },
    subject: { '2': { name: 'Φυσική' }, '3': { name: 'Χημεία' } },
    room: { '4': { name: 'Αίθουσα 1' } },
    class: { '9': { name: 'Β1' } },
    lesson_type: { '5': { name: 'Θεωρία', color: '#52c41a' }, '6': { name: 'Διαγώνισμα', color: null } },
  },
  total: 5,
};

describe('the calendar answer, decoded', () => {
  it('gives back each lesson in order with its ids, times, status and labels', () => {
    const lessons = decodeCalendar(ANSWER);
    expect(lessons.map((l) => l.id)).toEqual([101, 102, 103, 104, 105]);
    expect(lessons[0]).toEqual({
      id: 101,
      version: 3,
      date: '2027-02-01',
      start_time: '09:30',
      end_time: '10:15',
      status: 'NORMAL',
      kind: 1,
      teacher_id: 7,
      teacher: { id: 7, name: 'Μαρία Παπαδοπούλου' },
      subject_id: 2,
      subject: { id: 2, name: 'Φυσική' },
      room_id: 4,
      room: { id: 4, name: 'Αίθουσα 1' },
      class_id: 9,
      class: { id: 9, name: 'Β1' },
      lesson_type_id: 5,
      lesson_type: { id: 5, name: 'Θεωρία' },
      color: '#52c41a',
      recurring_lesson_id: 40,
      replaces_lesson_id: null,
      detached: false,
    } satisfies CalendarLesson);
    expect(lessons[1]).toMatchObject({ status: 'TO_BE_REPLACED', detached: true, class_id: null, class: null, subject: { id: 3, name: 'Χημεία' } });
    expect(lessons[2]).toMatchObject({ kind: 2, replaces_lesson_id: 102, room: null, teacher: { id: 8, name: 'Νίκος Αλεξίου' }, color: null });
    expect(lessons[3]).toMatchObject({ teacher: null, subject: null, room: null, class: null, lesson_type: null, color: null, status: 'CANCELED' });
    expect(lessons[4]!.teacher).toEqual({ id: 11, name: null, deleted: true });
  });

  it('finds the columns by name, whatever their order, and refuses an answer without one', () => {
    const order = [...CALENDAR_COLUMNS].reverse();
    const shuffled: CalendarAnswer = {
      ...ANSWER,
      columns: order,
      rows: ANSWER.rows.map((row) => order.map((c) => row[CALENDAR_COLUMNS.indexOf(c)]!)),
    };
    expect(decodeCalendar(shuffled)).toEqual(decodeCalendar(ANSWER));
    expect(() => decodeCalendar({ ...ANSWER, columns: CALENDAR_COLUMNS.filter((c) => c !== 'status') })).toThrow(/status/);
    expect(decodeCalendar({ columns: [...CALENDAR_COLUMNS], rows: [], labels: {}, total: 0 })).toEqual([]);
  });

  it('draws what the calendar shows: title, teacher and room, status, colour, tooltip, and who may drag it', () => {
    const events = decodeCalendar(ANSWER).map((l) => toEvent(l, t, true));
    expect(events.map((e) => ({ id: e.id, text: e.text, badge: e.badge, start: e.start, end: e.end, room: e.roomId, drag: e.draggable }))).toEqual([
      {
        id: 101,
        text: '09:30–10:15 Φυσική — Β1\nΜαρία Παπαδοπούλου · Αίθουσα 1',
        badge: '',
        start: new Date(2027, 1, 1, 9, 30),
        end: new Date(2027, 1, 1, 10, 15),
        room: 4,
        drag: true,
      },
      {
        id: 102,
        text: '14:00–15:30 Χημεία\nΜαρία Παπαδοπούλου · Αίθουσα 1\nΠρος αναπλήρωση',
        badge: 'Προς αναπλήρωση',
        start: new Date(2027, 1, 1, 14, 0),
        end: new Date(2027, 1, 1, 15, 30),
        room: 4,
        drag: true,
      },
      {
        id: 103,
        text: `14:00–15:30 Χημεία — Β1\nΝίκος Αλεξίου\n${t('enums.REPLACEMENT')}`,
        badge: t('enums.REPLACEMENT'),
        start: new Date(2027, 1, 2, 14, 0),
        end: new Date(2027, 1, 2, 15, 30),
        room: -1,
        drag: true,
      },
      {
        id: 104,
        text: `07:00–08:00 Χωρίς μάθημα\n${t('enums.CANCELED')}`,
        badge: t('enums.CANCELED'),
        start: new Date(2027, 1, 3, 7, 0),
        end: new Date(2027, 1, 3, 8, 0),
        room: -1,
        drag: true,
      },
      {
        id: 105,
        text: `18:00–19:00 Φυσική — Β1\nΔιαγραμμένος καθηγητής · Αίθουσα 1\n${t('enums.REPLACED')}`,
        badge: t('enums.REPLACED'),
        start: new Date(2027, 1, 3, 18, 0),
        end: new Date(2027, 1, 3, 19, 0),
        room: 4,
        drag: false,
      },
    ]);
    for (const e of events) expect(e.tooltip).toBe(e.text);
    // coloured by type, the default blue without one, grey when cancelled or replaced
    expect(events.map((e) => e.style.backgroundColor)).toEqual(['#52c41a', '#52c41a', '#1677ff', '#bfbfbf', '#bfbfbf']);
    expect(events.map((e) => e.className)).toEqual([
      'lesson-event lesson-normal',
      'lesson-event lesson-to_be_replaced',
      'lesson-event lesson-normal lesson-replacement',
      'lesson-event lesson-canceled',
      'lesson-event lesson-replaced',
    ]);
    // a TEACHER never drags
    expect(decodeCalendar(ANSWER).some((l) => toEvent(l, t, false).draggable)).toBe(false);
  });

  it('any week written in the compact form decodes to exactly the lessons it was written from', () => {
    const id = fc.integer({ min: 1, max: 2_000_000 });
    const ref = fc.option(fc.integer({ min: 1, max: 40 }), { nil: null });
    const time = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const lesson = fc.record({
      id,
      version: fc.integer({ min: 1, max: 99 }),
      date: fc.integer({ min: 0, max: 41 }).map((d) => new Date(Date.UTC(2027, 1, 1 + d)).toISOString().slice(0, 10)),
      start_time: time,
      end_time: time,
      status: fc.constantFrom(...LESSON_STATUSES),
      kind: fc.constantFrom(1 as const, 2 as const, 3 as const),
      teacher_id: ref,
      subject_id: ref,
      room_id: ref,
      class_id: ref,
      lesson_type_id: ref,
      recurring_lesson_id: fc.option(id, { nil: null }),
      replaces_lesson_id: fc.option(id, { nil: null }),
      detached: fc.boolean(),
    });
    const label = fc.record({
      name: fc.string({ maxLength: 20 }),
      deleted: fc.boolean(),
      color: fc.option(fc.constantFrom('#123456', '#abcdef'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(lesson, { maxLength: 60 }), fc.array(label, { minLength: 40, maxLength: 40 }), (plain, names) => {
        // the full lessons the server holds: every label beside its id
        const full: CalendarLesson[] = plain.map((l) => {
          const labelOf = (refId: number | null, deletable = false) => {
            if (refId === null) return null;
            const n = names[refId - 1]!;
            return deletable && n.deleted ? { id: refId, name: null, deleted: true as const } : { id: refId, name: n.name };
          };
          return {
            ...l,
            teacher: labelOf(l.teacher_id, true),
            subject: labelOf(l.subject_id),
            room: labelOf(l.room_id),
            class: labelOf(l.class_id),
            lesson_type: labelOf(l.lesson_type_id),
            color: l.lesson_type_id === null ? null : names[l.lesson_type_id - 1]!.color,
          };
        });
        // written compactly: values in column order, each used label once
        const labels: Partial<Record<CalendarLabelName, Record<string, CalendarLabel>>> = {};
        for (const [name, column] of Object.entries(CALENDAR_LABELS) as [CalendarLabelName, (typeof CALENDAR_LABELS)[CalendarLabelName]][]) {
          const table: Record<string, CalendarLabel> = {};
          for (const l of full) {
            const refId = l[column];
            if (refId === null) continue;
            const n = names[refId - 1]!;
            table[String(refId)] =
              name === 'teacher' && n.deleted ? { name: null, deleted: true } : name === 'lesson_type' ? { name: n.name, color: n.color } : { name: n.name };
          }
          labels[name] = table;
        }
        const answer: CalendarAnswer = { columns: [...CALENDAR_COLUMNS], rows: full.map((l) => CALENDAR_COLUMNS.map((c) => l[c])), labels, total: full.length };
        expect(decodeCalendar(JSON.parse(JSON.stringify(answer)) as CalendarAnswer)).toEqual(full);
      }),
    );
  });
});
