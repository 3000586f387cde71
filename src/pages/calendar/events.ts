import type { CSSProperties } from 'react';
import type { Translate } from '../../engine/fields/format';
import { KIND } from '../../../domain/lessons';
import type { CalendarLesson } from '../../../domain/calendar';
import { lessonTitle } from '../../resources/lessons/status';

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
  /** Title, detail and badge, a line each. */
  text: string;
  tooltip: string;
  draggable: boolean;
  className: string;
  style: CSSProperties;
}

const DEFAULT_COLOR = '#1677ff';

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function readableText(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return '#fff';
  const n = parseInt(m[1]!, 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return l > 0.45 ? '#1f1f1f' : '#fff';
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
  const grey = lesson.status === 'CANCELED';
  const background = grey ? '#bfbfbf' : color;
  return {
    id: lesson.id,
    title,
    start: at(lesson.date, lesson.start_time),
    end: at(lesson.date, lesson.end_time),
    roomId: lesson.room_id ?? NO_ROOM,
    lesson,
    detail,
    badge: badges.join(' · '),
    text: [`${lesson.start_time}–${lesson.end_time} ${title}`, detail, badges.join(' · ')].filter(Boolean).join('\n'),
    tooltip: [`${lesson.start_time}–${lesson.end_time} ${title}`, detail, badges.join(' · ')].filter(Boolean).join('\n'),
    draggable: staff && lesson.status !== 'REPLACED',
    className: `lesson-event lesson-${lesson.status.toLowerCase()}${lesson.kind === KIND.REPLACEMENT ? ' lesson-replacement' : ''}`,
    style: { backgroundColor: background, color: readableText(background), borderColor: grey ? '#8c8c8c' : color },
  };
}
