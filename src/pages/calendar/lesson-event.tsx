import { memo } from 'react';
import type { EventProps } from 'react-big-calendar';
import type { CalendarEvent } from './events';

/**
 * What an event shows: title, teacher and room, the status. One element and no hooks, so a
 * week of a thousand lessons stays cheap; `data-lesson-id` lets tests (and people) find it.
 */
export const LessonEvent = memo(function LessonEvent({ event }: EventProps<CalendarEvent>) {
  return (
    // one element, a line each for title, teacher and room, status
    <div className="lesson-event-body" data-lesson-id={event.id} data-status={event.lesson.status} data-kind={event.lesson.kind}>
      {event.text}
    </div>
  );
});
