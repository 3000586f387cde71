/** The report of an import (students, records of a custom entity): what was made, what was left out and why. */
import { z } from 'zod';
import { FIELD_CODES } from '../errors';
import { int } from './shape';

/** One refused row: its place in the rows sent (0-based) and a field code per refused field. */
export const ImportRowErrorSchema = z.object({ row: int, fields: z.record(z.string(), z.enum(FIELD_CODES)) });

/**
 * POST /api/students/import and /api/custom-entities/:slug/records/import: rows created (or
 * that would be, on a dry run), rows skipped, and each refused row. A refused import without
 * skip_invalid is a 400 whose `details.errors` are the same rows.
 */
export const ImportReportAnswer = z.object({ created: int, skipped: int, errors: z.array(ImportRowErrorSchema) });
