import { memo } from 'react';
import type { EventProps } from 'react-big-calendar';
import type { CalendarEvent } from './events';

/**
 * What an event shows: its times, then title, teacher and room, the status. Two elements and no
 * hooks, so a week of a thousand lessons stays cheap; `data-lesson-id` lets tests (and people)
 * find it. The times are an element of their own: in a narrow column (lessons side by side) they
 * wrap after the dash instead of being cut, and a month's cell shows them on the title's line.
 */
export const LessonEvent = memo(function LessonEvent({ event }: EventProps<CalendarEvent>) {
  return (
    <div className="lesson-event-body" data-lesson-id={event.id} data-status={event.lesson.status} data-kind={event.lesson.kind}>
      <span className="lesson-event-time">{event.time}</span>
      {event.text.slice(event.time.length)}
    </div>
  );
});
