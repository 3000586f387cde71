import { keys, useCustom, useCustomMutation, useInvalidate } from '@refinedev/core';
import { useCallback } from 'react';
import type { AttendanceStatus } from '../../../domain/enums';
import { API_URL, type ProviderError } from '../../providers/dataProvider';

// Attendance calls: the roster of a lesson (GET/PUT /api/lessons/<id>/attendance), the marks
// of a student or class over a range (GET /api/attendance) and their rates.

export interface Label {
  id: number;
  name: string | null;
}

interface RosterMark {
  id: number;
  status: AttendanceStatus;
  note: string | null;
  marked_by: number | null;
  marked_by_name: string | null;
  marked_at: string;
}

export interface RosterLine {
  student_id: number;
  student: Label;
  in_class: boolean;
  mark: RosterMark | null;
}

interface Roster {
  lesson: { id: number; date: string; start_time: string; end_time: string; class: Label | null; subject: Label | null };
  students: RosterLine[];
}

export interface AttendanceRow {
  id: number;
  lesson_id: number;
  student_id: number;
  student: Label;
  status: AttendanceStatus;
  note: string | null;
  date: string;
  start_time: string;
  end_time: string;
  class: Label | null;
  subject: Label | null;
}

interface Rates {
  total: number;
  counts: Record<AttendanceStatus, number>;
  rate: number | null;
}

const rosterKey = (lessonId: number) => keys().data('default').resource('attendance').action('one').id(lessonId).get();

export function useRoster(lessonId: number) {
  return useCustom<{ data: Roster }, ProviderError>({
    url: `${API_URL}/lessons/${lessonId}/attendance`,
    method: 'get',
    errorNotification: false,
    queryOptions: { queryKey: rosterKey(lessonId) },
  });
}

export function useSaveMarks(lessonId: number) {
  const invalidate = useInvalidate();
  const { mutateAsync, mutation } = useCustomMutation<{ data: Roster }, ProviderError>();
  const save = useCallback(
    async (marks: { student_id: number; status: AttendanceStatus }[]) => {
      const answer = await mutateAsync({
        url: `${API_URL}/lessons/${lessonId}/attendance`,
        method: 'put',
        values: { marks },
        successNotification: false,
        errorNotification: false,
      });
      await Promise.all(['attendance', 'lessons', 'history'].map((resource) => invalidate({ resource, invalidates: ['resourceAll'] })));
      return answer.data.data;
    },
    [mutateAsync, invalidate, lessonId],
  );
  return { save, saving: mutation.isPending };
}

export interface RangeQuery {
  student_id?: number;
  class_id?: number;
  from?: string;
  to?: string;
}

export function useAttendanceList(query: RangeQuery & { start: number; end: number }) {
  const { from, to, start, end, ...owner } = query;
  const params = { ...owner, date_gte: from, date_lte: to, _start: start, _end: end };
  return useCustom<{ data: AttendanceRow[]; total: number }, ProviderError>({
    url: `${API_URL}/attendance`,
    method: 'get',
    config: { query: params },
    errorNotification: false,
    queryOptions: { queryKey: keys().data('default').resource('attendance').action('list').params(params).get(), placeholderData: (previous) => previous },
  });
}

export function useAttendanceRates(query: RangeQuery) {
  return useCustom<{ data: Rates }, ProviderError>({
    url: `${API_URL}/attendance/rates`,
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: { queryKey: keys().data('default').resource('attendance').action('list').params({ rates: query }).get() },
  });
}
