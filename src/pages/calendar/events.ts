import type { CSSProperties } from 'react';
import { KIND } from '../../../domain/lessons';
import type { CalendarLesson } from '../../../domain/calendar';
import { lessonTitle } from '../../resources/lessons/status';
import type { Translate } from '../../providers/i18nProvider';

/** The column of lessons without a room in the day view. */
export const NO_ROOM = -1;

/** One lesson on the calendar: everything an event renders is computed once, here. */
export interface CalendarEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  roomId: number;
  lesson: CalendarLesson;
  /** "Μαρία Π. · Αίθουσα 1" */
  detail: string;
  /** Status text shown on the event (to be replaced, replaced, cancelled, replacement). */
  badge: string;
  /** "15:00–16:00 ": the start of `text`, drawn on its own so it can wrap but is never cut. */
  time: string;
  /** Times and title, detail and badge, a line each. */
  text: string;
  tooltip: string;
  draggable: boolean;
  className: string;
  style: CSSProperties;
}

const DEFAULT_COLOR = '#1677ff';

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
function readableText(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return '#fff';
  const n = parseInt(m[1]!, 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  // the contrast ratio with white is 1.05 / (l + 0.05), with black (l + 0.05) / 0.05: black
  // wins above l = 0.179, and either is then at least 4.58:1
  return l > 0.179 ? '#000' : '#fff';
}

const at = (date: string, time: string) =>
  new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), Number(time.slice(0, 2)), Number(time.slice(3, 5)));

export function toEvent(lesson: CalendarLesson, t: Translate, staff: boolean): CalendarEvent {
  const color = lesson.color ?? DEFAULT_COLOR;
  const title = lessonTitle(lesson, t);
  const detail = [lesson.teacher?.name ?? (lesson.teacher?.deleted ? t('directory.deletedTeacher') : null), lesson.room?.name].filter(Boolean).join(' · ');
  const badges: string[] = [];
  if (lesson.status !== 'NORMAL') badges.push(t(`enums.${lesson.status}`));
  if (lesson.kind === KIND.REPLACEMENT) badges.push(t('enums.REPLACEMENT'));
  // Cancelled and replaced lessons are grey (and struck through): readable, yet plainly not on.
  const grey = lesson.status === 'CANCELED' || lesson.status === 'REPLACED';
  const background = grey ? '#bfbfbf' : color;
  const time = `${lesson.start_time}–${lesson.end_time} `;
  const text = [`${time}${title}`, detail, badges.join(' · ')].filter(Boolean).join('\n');
  return {
    id: lesson.id,
    title,
    start: at(lesson.date, lesson.start_time),
    end: at(lesson.date, lesson.end_time),
    roomId: lesson.room_id ?? NO_ROOM,
    lesson,
    detail,
    badge: badges.join(' · '),
    time,
    text,
    tooltip: text,
    draggable: staff && lesson.status !== 'REPLACED',
    className: `lesson-event lesson-${lesson.status.toLowerCase()}${lesson.kind === KIND.REPLACEMENT ? ' lesson-replacement' : ''}`,
    style: { backgroundColor: background, color: readableText(background), borderColor: grey ? '#8c8c8c' : color },
  };
}
