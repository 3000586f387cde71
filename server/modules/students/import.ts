/**
 * POST /api/students/import: many student create bodies at once (the client reads a CSV).
 * Every row is checked by the very functions a single create runs (the create route's body
 * schema and validator, then the references and the custom values), so a row is imported exactly when POST /api/students
 * would take it; then either nothing is written (an invalid row without skip_invalid, or
 * dry_run) or all valid rows are, in one transaction, each with its history entry. Inserts
 * go in batches, not row by row.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSchema, DomainError, ImportReportAnswer, type ImportRowError, parseBody, STUDENTS, type FieldErrors } from '../../../domain/index';
import { sql } from 'drizzle-orm';
import { platform, withTenant, type Database } from '../../db/client';
import { students } from '../../db/schema/index';
import { validatorCompiler } from '../../plugins/openapi';
import { answerSchema } from '../../engine/answers';
import { formBody } from '../../engine/body';
import { withDefaults } from '../../engine/input';
import { ctxOf } from '../../engine/routes';
import type { Registry } from '../../engine/registry';
import { checkReferences, columnValues, historyView, linkRow, searchText } from '../../engine/write';
import { recordHistoryMany } from '../../engine/history';
import { loadDefinitions } from '../student-custom-fields/definitions';
import { checkCustomValues } from './custom-values';
import { studentsSpec } from './spec';

export const MAX_IMPORT_ROWS = 5000;
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;
const BATCH = 500;
const ANALYZE_AFTER_ROWS = 500;

const Body = z.strictObject({
  rows: z.array(z.unknown()).max(MAX_IMPORT_ROWS),
  skip_invalid: z.boolean().optional(),
  dry_run: z.boolean().optional(),
});
/** The create route's own body check (schema and compiler), so a row passes exactly when a create would. */
const checkRow = validatorCompiler({ schema: formBody(STUDENTS, createSchema(STUDENTS)), httpPart: 'body', method: 'POST', url: '/api/students' });

/** As reads show them (server/engine/read.ts), so later history entries compare alike. */
const sortedIds = (v: unknown) => [...((v as number[] | null | undefined) ?? [])].sort((a, b) => a - b);

export async function studentImportRoutes(app: FastifyInstance, database: Database, registry: Registry) {
  app.post(
    '/api/students/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: { area: 'students', action: 'create' } },
      schema: {
        tags: ['students'],
        summary: 'Create many students at once (all or nothing unless skip_invalid)',
        response: { 200: answerSchema(ImportReportAnswer) },
      },
    },
    async (request) => {
      const body = parseBody(Body, request.body);
      const ctx = ctxOf(request);
      const errors: ImportRowError[] = [];
      const parsed: Array<{ row: number; input: Record<string, unknown> }> = [];
      body.rows.forEach((raw, row) => {
        const checked = checkRow(raw) as { value?: unknown; error?: unknown };
        if (checked.error instanceof DomainError && checked.error.fields) return errors.push({ row, fields: checked.error.fields });
        if (checked.error) throw checked.error;
        parsed.push({ row, input: withDefaults(STUDENTS, checked.value as Record<string, unknown>) });
      });

      const outcome = await withTenant(database, ctx.tenantId, async (tx) => {
        const defs = await loadDefinitions(tx, ctx.tenantId);
        const references = await checkReferences(
          tx,
          registry,
          ctx,
          studentsSpec,
          parsed.map((p) => p.input),
        );
        const valid: Array<Record<string, unknown>> = [];
        parsed.forEach(({ row, input }, i) => {
          const fields: FieldErrors = { ...references[i] };
          const custom = checkCustomValues(defs, input.custom_fields);
          if (custom.ok) input.custom_fields = custom.value;
          else Object.assign(fields, custom.fields);
          if (Object.keys(fields).length) errors.push({ row, fields });
          else valid.push(input);
        });
        errors.sort((a, b) => a.row - b.row);
        if (errors.length && !body.skip_invalid) {
          throw new DomainError(
            'validation',
            `${errors.length} rows are not valid; nothing was imported.`,
            { rows: 'invalid' },
            { details: { reason: 'rows-invalid', count: errors.length, errors } },
          );
        }
        if (body.dry_run || !valid.length) return { created: valid.length, skipped: errors.length, errors };

        for (let at = 0; at < valid.length; at += BATCH) {
          const batch = valid.slice(at, at + BATCH);
          const ids = await tx
            .insert(students)
            .values(
              batch.map(
                (input) =>
                  ({ ...columnValues(studentsSpec, input), tenantId: ctx.tenantId, search: searchText(studentsSpec, input) }) as typeof students.$inferInsert,
              ),
            )
            .returning({ id: students.id });
          for (const [name, link] of Object.entries(studentsSpec.links ?? {})) {
            const pairs = batch.flatMap((input, i) => ((input[name] as number[] | null) ?? []).map((other) => ({ owner: ids[i]!.id, other })));
            if (!pairs.length) continue;
            await tx.insert(link.table).values(pairs.map((p) => linkRow(link, ctx.tenantId, p.owner, p.other)) as never);
          }
          await recordHistoryMany(
            tx,
            ctx.tenantId,
            ctx.actor,
            batch.map((input, i) => ({
              entity: 'students',
              entityId: ids[i]!.id,
              action: 'create' as const,
              after: historyView(studentsSpec, { ...input, class_ids: sortedIds(input.class_ids), subject_ids: sortedIds(input.subject_ids) }),
            })),
          );
        }
        return { created: valid.length, skipped: errors.length, errors };
      });
      // A large import changes the table's shape; fresh statistics keep list pages on their
      // indexes (PGlite has no autovacuum to notice). Needs the table owner, so not in tx.
      if (!body.dry_run && outcome.created >= ANALYZE_AFTER_ROWS) await platform(database).execute(sql`analyze students`);
      return outcome;
    },
  );
}
