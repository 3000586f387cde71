/** The report of an import (students, records of a custom entity): what was made, what was left out and why. */
import { z } from 'zod';
import { FIELD_CODES } from '../field-codes';
import { int } from './shape';

/** One refused row: its place in the rows sent (0-based) and a field code per refused field. */
export const ImportRowErrorSchema = z.object({ row: int, fields: z.record(z.string(), z.enum(FIELD_CODES)) });

/**
 * POST /api/students/import and /api/custom-entities/:slug/records/import: rows created (or
 * that would be, on a dry run), rows skipped, and each refused row. A refused import without
 * skip_invalid is a 400 whose `details.errors` are the same rows.
 */
export const ImportReportAnswer = z.object({ created: int, skipped: int, errors: z.array(ImportRowErrorSchema) });

/**
 * A long import worked in the background (POST …/import answers 202 with it; GET
 * …/import?job=<id> answers it again as it goes): how far the check and the creation have come,
 * and once done the report, or the error that took everything back.
 */
export const ImportJobAnswer = z.object({
  job: z.string(),
  status: z.enum(['checking', 'creating', 'done', 'failed']),
  total: int,
  checked: int,
  created: int,
  report: ImportReportAnswer.nullable(),
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional(), details: z.unknown().optional() }).nullable(),
});
