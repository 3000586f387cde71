import type { QueryClient } from '@tanstack/react-query';
import { http } from '../../providers/http';
import type { Lesson, RecurringLesson } from './types';

// The lesson calls of CONTRACT issue 4. Forms call these directly (not Refine's useForm) because
// a 409 conflict carries the lessons in the way, which the forms show.

export const CALENDAR_KEY = 'lessons-calendar';

export interface CalendarQuery {
  from: string;
  to: string;
  teacher_id?: number[];
  class_id?: number[];
  room_id?: number[];
  subject_id?: number[];
}

export async function fetchCalendar(query: CalendarQuery): Promise<{ data: Lesson[]; total: number }> {
  const { data } = await http.get<{ data: Lesson[]; total: number }>('/api/lessons/calendar', {
    params: query,
    // ids repeat (teacher_id=1&teacher_id=2), as the list API reads "in"
    paramsSerializer: { indexes: null },
  });
  return data;
}

export const getLesson = async (id: number) => (await http.get<{ data: Lesson }>(`/api/lessons/${id}`)).data.data;
export const getSeries = async (id: number) => (await http.get<{ data: RecurringLesson }>(`/api/recurring-lessons/${id}`)).data.data;

export const createLesson = async (body: Record<string, unknown>) => (await http.post<{ id: number; data: Lesson }>('/api/lessons', body)).data;
export const patchLesson = async (id: number, body: Record<string, unknown>) => (await http.patch<{ data: Lesson }>(`/api/lessons/${id}`, body)).data.data;
export const deleteLesson = (id: number) => http.delete(`/api/lessons/${id}`);

export const createSeries = async (body: Record<string, unknown>) =>
  (await http.post<{ id: number; data: RecurringLesson; lesson_ids: number[] }>('/api/recurring-lessons', body)).data;
export const patchSeries = async (id: number, body: Record<string, unknown>) =>
  (await http.patch<{ data: RecurringLesson; lesson_ids: number[] }>(`/api/recurring-lessons/${id}`, body)).data;

/** After any lesson write: the calendar, Refine's lists and rows of lessons and series reload. */
export async function refreshLessons(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [CALENDAR_KEY] }),
    // Refine keys its queries ['data', <provider>, <resource>, ...]
    queryClient.invalidateQueries({
      predicate: (q) => q.queryKey[0] === 'data' && ['lessons', 'recurring-lessons', 'history'].includes(String(q.queryKey[2])),
    }),
  ]);
}
