/** The answers of the calendar's week and of a recurring series' create and change. */
import { z } from 'zod';
import { CALENDAR_COLUMNS } from '../calendar-columns';
import { int, RecordRow } from './shape';

/**
 * POST /api/recurring-lessons (201, with `id`) and PATCH /api/recurring-lessons/:id: the series
 * (its CRUD row) and the ids of the lessons made or changed.
 */
export const SeriesAnswer = z.object({ id: int.optional(), data: RecordRow, lesson_ids: z.array(int) });

/** A label without its id (the key it is filed under): a deleted teacher's name is null; a lesson type's has its colour. */
export const CalendarLabelSchema = z.object({
  name: z.string().nullable(),
  deleted: z.literal(true).optional().describe('A deleted teacher: the name is null'),
  color: z.string().nullable().optional().describe('A lesson type’s colour'),
});

const labels = z.record(z.string(), CalendarLabelSchema).optional().describe('Labels keyed by id, each once per answer');

/**
 * GET /api/lessons/calendar: the compact week of domain/calendar.ts. PostgreSQL writes this
 * answer as JSON itself and the server sends it as it is: the schema types it and documents it,
 * it never checks or rewrites it on the way out (tests parse it).
 */
export const CalendarAnswerSchema = z.object({
  columns: z.array(z.enum(CALENDAR_COLUMNS)).describe('The names of the values of each row, in order'),
  rows: z.array(z.array(z.union([int, z.string(), z.boolean(), z.null()]))).describe(`One array per lesson, in time order: ${CALENDAR_COLUMNS.join(', ')}`),
  labels: z
    .object({ teacher: labels, subject: labels, room: labels, class: labels, lesson_type: labels })
    .describe('The name of each teacher, subject, room, class and lesson type the rows name (and the type’s colour), by id'),
  total: int,
});
