import { keys, useCustom, useCustomMutation, useInvalidate } from '@refinedev/core';
import { useCallback, useEffect } from 'react';
import { subscribeNotifications } from '../../providers/notification-stream';
import { API_URL, toProviderError, type ProviderError } from '../../providers/dataProvider';
import type { z } from 'zod';
import type { SeriesAnswer as SeriesAnswerSchema } from '../../../domain/answers/lessons';
import type { CalendarAnswer } from '../../../domain/calendar';
import type { RecurringLesson } from './types';

// The lesson calls that are not plain CRUD go through Refine's custom hooks: the calendar's
// week (one GET with its own parameters) and the series commands (their answer also lists the
// lessons made). Plain lesson reads and writes use useOne/useCreate/useUpdate/useDelete.

export interface CalendarQuery {
  from: string;
  to: string;
  teacher_id?: number[];
  class_id?: number[];
  room_id?: number[];
  subject_id?: number[];
}

/**
 * The lessons of the calendar's range (GET /api/lessons/calendar; ids repeat as
 * `teacher_id=1&teacher_id=2`), in the compact form that decodeCalendar (domain/calendar.ts)
 * turns into lessons. The server answers 304 to the browser's If-None-Match when the
 * week did not change, and the browser hands the cached body back. Keyed under `lessons`, so
 * every lesson write that invalidates the lesson lists reloads it too.
 */
export function useCalendarLessons(query: CalendarQuery) {
  return useCustom<CalendarAnswer, ProviderError>({
    url: `${API_URL}/lessons/calendar`,
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: {
      queryKey: keys().data('default').resource('lessons').action('list').params({ calendar: query }).get(),
      // the previous week stays on screen while the next one loads
      placeholderData: (previous) => previous,
      staleTime: 30_000,
    },
  });
}

/** What a series create or change answers (domain/answers/lessons.ts), the series typed as its rows are. */
export type SeriesAnswer = Omit<z.infer<typeof SeriesAnswerSchema>, 'data'> & { data: RecurringLesson };

/** Creates (POST) or changes (PATCH, with a scope) a series and all its lessons. */
export function useSeriesCommand() {
  const { mutateAsync, mutation } = useCustomMutation<SeriesAnswer, ProviderError>();
  const send = useCallback(
    async (id: number | null, body: Record<string, unknown>): Promise<SeriesAnswer> => {
      const answer = await mutateAsync({
        url: `${API_URL}/recurring-lessons${id === null ? '' : `/${id}`}`,
        method: id === null ? 'post' : 'patch',
        values: body,
        successNotification: false,
        errorNotification: false,
      });
      return answer.data;
    },
    [mutateAsync],
  );
  return { send, saving: mutation.isPending };
}

/** After any lesson write: the calendar, the lists and rows of lessons and series, and History reload. */
export function useRefreshLessons(): () => Promise<void> {
  const invalidate = useInvalidate();
  return useCallback(async () => {
    await Promise.all(['lessons', 'recurring-lessons', 'history'].map((resource) => invalidate({ resource, invalidates: ['resourceAll'] })));
  }, [invalidate]);
}

/** The notifications that mean a lesson of this user was made, moved, cancelled or changed. */
const LESSON_NEWS = /^(lesson|series)-/;

/**
 * While a lesson screen is open, news of a lesson change arriving on this tab's notification
 * stream (the office moved a teacher's lesson) reloads the calendar, the lists and an open
 * lesson: what is on screen shows the new time without a reload of the page.
 */
export function useLiveLessons() {
  const refresh = useRefreshLessons();
  useEffect(
    () =>
      subscribeNotifications((state) => {
        if (state.fresh && state.latest && LESSON_NEWS.test(state.latest.kind)) void refresh();
      }),
    [refresh],
  );
}

/** Lesson mutations show their own messages and errors (a conflict names the lessons in the way). */
export const QUIET = { successNotification: false, errorNotification: false, mutationMode: 'pessimistic' } as const;

export { toProviderError as providerError };

/** The translated field errors of a failure, for antd's form.setFields. */
export function fieldProblems(error: ProviderError): Array<[string, string]> {
  return Object.entries(error.errors ?? {}).map(([name, text]) => [name, String(text)]);
}
