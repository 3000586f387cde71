/**
 * Recurring lessons (docs/rules.md, Recurring lessons): a series materialises its dates as lessons linked by
 * recurring_lesson_id, all in one transaction or none. Every date's conflicts are found in
 * one statement before anything is written; lessons, tag links and history go in as one
 * multi-row INSERT each, so a school year of weekly lessons costs a handful of round trips.
 */
import { lessonsChanged, seriesCreated, type LessonChange } from '../notifications/lesson-events';
import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { addDays, canChangeStatus, DomainError, expandRecurrence, KIND, SCHEDULE_FIELDS, type LessonStatus, type RecurrenceRule } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { lessons, lessonTagLinks, recurringLessons, recurringLessonTagLinks } from '../../db/schema/index';
import { loadRows, findRow } from '../../engine/read';
import type { Registry } from '../../engine/registry';
import type { Ctx, Data } from '../../engine/spec';
import { tableColumns } from '../../engine/table';
import { checkReferences, columnValues, historyView, searchText } from '../../engine/write';
import { recordHistoryMany, type HistoryEntry } from '../../engine/history';
import { assertNoConflicts, takeBookingLock, type Slot } from './conflicts';
import { assertTimes, changedFields, lessonsSpec, recurringLessonsSpec, slotOf } from './spec';

/** What the series' rule is made of: changing any of these re-plans its dates. */
export const RULE_FIELDS = ['repeat', 'repeat_every', 'weekdays', 'start_date', 'end_type', 'occurrences', 'until_date', 'dates'] as const;
/** A lesson's schedule fields that a series carries (all but the date). */
const SERIES_SCHEDULE = SCHEDULE_FIELDS.filter((f) => f !== 'date');
const PLACING = ['start_time', 'end_time', 'room_id', 'teacher_id', 'class_id'];
/** No series holds more lessons than this (MAX_OCCURRENCES plus instances moved in by hand). */
const SERIES_ROWS = 10_000;

type Row = Record<string, unknown>;

function expand(row: Row) {
  const expansion = expandRecurrence(row as unknown as RecurrenceRule);
  if (!expansion.ok) throw new DomainError('validation', 'The repetition is not valid.', expansion.fields, { details: { reason: 'series-invalid' } });
  return expansion;
}

async function assertRefs(tx: Tx, registry: Registry, ctx: Ctx, input: Row) {
  const [fields] = await checkReferences(tx, registry, ctx, recurringLessonsSpec, [input]);
  if (fields && Object.keys(fields).length) {
    throw new DomainError('validation', 'A referenced record does not exist.', fields, { details: { reason: 'reference-missing' } });
  }
}

/** A new lesson of the series on `date`, as the API shows it (for history and conflicts). */
function instance(series: Row, seriesId: number, date: string): Row {
  return {
    date,
    start_time: series.start_time,
    end_time: series.end_time,
    teacher_id: series.teacher_id ?? null,
    subject_id: series.subject_id ?? null,
    room_id: series.room_id ?? null,
    class_id: series.class_id ?? null,
    lesson_type_id: series.lesson_type_id ?? null,
    tag_ids: (series.tag_ids as number[] | null | undefined) ?? [],
    notes: series.notes ?? null,
    homework: null,
    status: 'NORMAL',
    kind: KIND.NORMAL,
    replaces_lesson_id: null,
    recurring_lesson_id: seriesId,
    detached: false,
  };
}

/** Inserts lessons (one statement) and their tag links (one more); returns their ids in order. */
async function insertLessons(tx: Tx, tenantId: number, rows: Row[]): Promise<number[]> {
  if (!rows.length) return [];
  const cols = tableColumns(lessons);
  const values = rows.map((row) => ({
    ...columnValues(lessonsSpec, row, { kind: row.kind, recurring_lesson_id: row.recurring_lesson_id, detached: false }),
    tenantId,
    [cols.keyOf.search!]: searchText(lessonsSpec, row),
  }));
  const inserted = await tx.insert(lessonsSpec.table).values(values).returning({ id: lessons.id, date: lessons.date });
  // Dates are unique within a series: match by date rather than trust the RETURNING order.
  const byDate = new Map(inserted.map((r) => [r.date, r.id]));
  const ids = rows.map((row) => byDate.get(row.date as string)!);
  const links = rows.flatMap((row, i) => ((row.tag_ids as number[]) ?? []).map((tagId) => ({ tenantId, lessonId: ids[i]!, tagId })));
  if (links.length) await tx.insert(lessonTagLinks).values(links);
  return ids;
}

async function writeSeriesTags(tx: Tx, tenantId: number, seriesId: number, tagIds: number[], isNew: boolean) {
  if (!isNew)
    await tx
      .delete(recurringLessonTagLinks)
      .where(and(eq(recurringLessonTagLinks.tenantId, tenantId), eq(recurringLessonTagLinks.recurringLessonId, seriesId)));
  if (tagIds.length) await tx.insert(recurringLessonTagLinks).values(tagIds.map((tagId) => ({ tenantId, recurringLessonId: seriesId, tagId })));
}

const createdEntry = (row: Row, id: number): HistoryEntry => ({ entity: 'lessons', entityId: id, action: 'create', after: historyView(lessonsSpec, row) });

async function mustFindSeries(tx: Tx, registry: Registry, ctx: Ctx, id: number): Promise<Data> {
  const row = await findRow(tx, registry, ctx, recurringLessonsSpec, id);
  if (!row) throw new Error(`recurring lesson ${id} vanished inside its own transaction`);
  return row;
}

/**
 * POST /api/recurring-lessons: `input` is the validated body (skip_dates apart). Refused as a
 * whole on the first problem: times, the rule, references, then every date's conflicts.
 */
export async function createSeries(tx: Tx, registry: Registry, ctx: Ctx, input: Row, skipDates: readonly string[] = []) {
  assertTimes(input);
  const { dates: all, rule } = expand(input);
  const skip = new Set(skipDates);
  const dates = all.filter((d) => !skip.has(d));
  if (!dates.length) {
    throw new DomainError('validation', 'Every date of the series is skipped.', { skip_dates: 'invalid' }, { details: { reason: 'series-all-skipped' } });
  }
  await takeBookingLock(tx, ctx.tenantId);
  await assertRefs(tx, registry, ctx, input);
  const series: Row = { ...input, ...rule };
  await assertNoConflicts(
    tx,
    ctx.tenantId,
    dates.map((date) => slotOf({ ...series, date })),
  );

  const cols = tableColumns(recurringLessons);
  const [row] = await tx
    .insert(recurringLessonsSpec.table)
    .values({ ...columnValues(recurringLessonsSpec, series), tenantId: ctx.tenantId, [cols.keyOf.search!]: searchText(recurringLessonsSpec, series) })
    .returning({ id: recurringLessons.id });
  const seriesId = row!.id;
  await writeSeriesTags(tx, ctx.tenantId, seriesId, (series.tag_ids as number[] | null) ?? [], true);
  const rows = dates.map((date) => instance(series, seriesId, date));
  const lessonIds = await insertLessons(tx, ctx.tenantId, rows);
  await seriesCreated(tx, ctx, (series.teacher_id as number | null | undefined) ?? null, lessonIds);
  const data = await mustFindSeries(tx, registry, ctx, seriesId);
  await recordHistoryMany(tx, ctx.tenantId, ctx.actor, [
    { entity: 'recurring-lessons', entityId: seriesId, action: 'create', after: historyView(recurringLessonsSpec, data) },
    ...rows.map((r, i) => createdEntry(r, lessonIds[i]!)),
  ]);
  return { data, lesson_ids: lessonIds };
}

async function lockSeries(tx: Tx, registry: Registry, ctx: Ctx, id: number): Promise<Data> {
  const row = await findRow(tx, registry, ctx, recurringLessonsSpec, id, true);
  if (!row) throw new DomainError('not-found');
  return row;
}

/** The series' lessons from `fromDate` (all without), detached ones only when asked. */
async function seriesLessons(tx: Tx, registry: Registry, ctx: Ctx, seriesId: number, fromDate: string | undefined, includeChanged: boolean) {
  const where: SQL[] = [eq(lessons.tenantId, ctx.tenantId), eq(lessons.recurringLessonId, seriesId)];
  if (fromDate) where.push(gte(lessons.date, fromDate));
  if (!includeChanged) where.push(eq(lessons.detached, false));
  const { rows } = await loadRows(tx, registry, ctx, lessonsSpec, { where, limit: SERIES_ROWS });
  return rows;
}

export interface SeriesPatch {
  scope: 'all' | 'following';
  fromDate?: string;
  includeChanged: boolean;
}

/**
 * PATCH /api/recurring-lessons/:id. Schedule changes reach the lessons in scope; a rule
 * change replaces the in-scope lessons that are still plain NORMAL ones with the new rule's
 * dates (a date some kept lesson of the series holds is left to it).
 */
export async function patchSeries(tx: Tx, registry: Registry, ctx: Ctx, id: number, input: Row, version: number, opts: SeriesPatch) {
  await takeBookingLock(tx, ctx.tenantId);
  const before = await lockSeries(tx, registry, ctx, id);
  if (version !== before.version) throw new DomainError('stale');
  const merged: Row = { ...before, ...input };
  if ('start_time' in input || 'end_time' in input) assertTimes(merged);
  const ruleChanged = changedFields(input, before, RULE_FIELDS).length > 0;
  const rule = ruleChanged ? expand(merged) : undefined;
  const refs: Row = {};
  for (const f of ['teacher_id', 'subject_id', 'room_id', 'class_id', 'lesson_type_id', 'tag_ids'])
    if (f in input && !(f !== 'tag_ids' && input[f] === before[f])) refs[f] = input[f];
  await assertRefs(tx, registry, ctx, refs);
  const series = { ...merged, ...(rule?.rule ?? {}) };

  const fromDate = opts.scope === 'following' ? opts.fromDate : undefined;
  const inScope = await seriesLessons(tx, registry, ctx, id, fromDate, opts.includeChanged);
  const changes = changedFields(input, before, SERIES_SCHEDULE);
  const patch: Row = Object.fromEntries(changes.map((f) => [f, input[f]]));

  // A rule change re-plans the plain lessons; those with a status of their own or part of a replacement stay.
  const replanned = rule ? inScope.filter((l) => l.status === 'NORMAL' && l.kind === KIND.NORMAL && !l.replaces_lesson_id) : [];
  const replannedIds = new Set(replanned.map((l) => l.id));
  const kept = inScope.filter((l) => !replannedIds.has(l.id));
  const updated = changes.length ? kept : [];
  let created: Row[] = [];
  if (rule) {
    const remaining = await seriesDates(tx, ctx.tenantId, id, [...replannedIds]);
    created = rule.dates.filter((d) => (!fromDate || d >= fromDate) && !remaining.has(d)).map((date) => instance(series, id, date));
  }

  const placing = changes.some((f) => PLACING.includes(f));
  const slots: Slot[] = [
    ...(placing ? updated.filter((l) => l.status === 'NORMAL').map((l) => slotOf({ ...l, ...patch })) : []),
    ...created.map((r) => slotOf(r)),
  ];
  await assertNoConflicts(
    tx,
    ctx.tenantId,
    slots,
    inScope.map((l) => l.id),
  );

  const entries: HistoryEntry[] = [];
  if (replanned.length) {
    await tx.delete(lessons).where(and(eq(lessons.tenantId, ctx.tenantId), inArray(lessons.id, [...replannedIds])));
    for (const l of replanned) entries.push({ entity: 'lessons', entityId: l.id, action: 'delete', before: historyView(lessonsSpec, l) });
  }
  if (updated.length) {
    const ids = updated.map((l) => l.id);
    const values = columnValues(lessonsSpec, patch);
    await tx
      .update(lessonsSpec.table)
      .set({ ...values, version: sql`${lessons.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(lessons.tenantId, ctx.tenantId), inArray(lessons.id, ids)));
    if ('tag_ids' in patch) {
      await tx.delete(lessonTagLinks).where(and(eq(lessonTagLinks.tenantId, ctx.tenantId), inArray(lessonTagLinks.lessonId, ids)));
      const tags = (patch.tag_ids as number[] | null) ?? [];
      if (tags.length) await tx.insert(lessonTagLinks).values(ids.flatMap((lessonId) => tags.map((tagId) => ({ tenantId: ctx.tenantId, lessonId, tagId }))));
    }
    for (const l of updated)
      entries.push({
        entity: 'lessons',
        entityId: l.id,
        action: 'update',
        before: historyView(lessonsSpec, l),
        after: { ...historyView(lessonsSpec, l), ...patch },
      });
  }
  const createdIds = await insertLessons(tx, ctx.tenantId, created);
  created.forEach((r, i) => entries.push(createdEntry(r, createdIds[i]!)));
  await lessonsChanged(tx, ctx, [
    ...replanned.map((l): LessonChange => ({ before: l, after: null })),
    ...updated.map((l): LessonChange => ({ before: l, after: { ...l, ...patch } })),
    ...created.map((r, i): LessonChange => ({ before: null, after: { ...r, id: createdIds[i] } })),
  ]);

  const cols = tableColumns(recurringLessons);
  const seriesInput = { ...input, ...(rule?.rule ?? {}) };
  await tx
    .update(recurringLessonsSpec.table)
    .set({
      ...columnValues(recurringLessonsSpec, seriesInput),
      [cols.keyOf.search!]: searchText(recurringLessonsSpec, series),
      version: sql`${recurringLessons.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(recurringLessons.tenantId, ctx.tenantId), eq(recurringLessons.id, id)));
  if ('tag_ids' in input) await writeSeriesTags(tx, ctx.tenantId, id, (input.tag_ids as number[] | null) ?? [], false);
  const data = await mustFindSeries(tx, registry, ctx, id);
  entries.unshift({
    entity: 'recurring-lessons',
    entityId: id,
    action: 'update',
    before: historyView(recurringLessonsSpec, before),
    after: historyView(recurringLessonsSpec, data),
  });
  await recordHistoryMany(tx, ctx.tenantId, ctx.actor, entries);
  return { data, lesson_ids: [...updated.map((l) => l.id), ...createdIds] };
}

/**
 * PATCH /api/recurring-lessons/:id with `status` alone: cancels, marks to be replaced or
 * restores the lessons in scope, each along the moves a single lesson may make (docs/rules.md, Status and replacement);
 * lessons already there or that may not make the move (a replaced one) stay as they are.
 * Restoring is refused as a whole (409) when any restored lesson would clash.
 */
export async function setSeriesStatus(tx: Tx, registry: Registry, ctx: Ctx, id: number, status: LessonStatus, version: number, opts: SeriesPatch) {
  await takeBookingLock(tx, ctx.tenantId);
  const before = await lockSeries(tx, registry, ctx, id);
  if (version !== before.version) throw new DomainError('stale');
  const inScope = await seriesLessons(tx, registry, ctx, id, opts.scope === 'following' ? opts.fromDate : undefined, opts.includeChanged);
  const moving = inScope.filter((l) => l.status !== status && canChangeStatus(l.status as LessonStatus, status));
  const ids = moving.map((l) => l.id);
  if (status === 'NORMAL')
    await assertNoConflicts(
      tx,
      ctx.tenantId,
      moving.map((l) => slotOf(l)),
      ids,
    );
  if (moving.length) {
    await tx
      .update(lessons)
      .set({ status, version: sql`${lessons.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(lessons.tenantId, ctx.tenantId), inArray(lessons.id, ids)));
    await recordHistoryMany(
      tx,
      ctx.tenantId,
      ctx.actor,
      moving.map((l): HistoryEntry => ({ entity: 'lessons', entityId: l.id, action: 'update', before: { status: l.status }, after: { status } })),
    );
    await lessonsChanged(
      tx,
      ctx,
      moving.map((l) => ({ before: l, after: { ...l, status } })),
    );
  }
  return { data: before, lesson_ids: ids };
}

/** Dates held by the series' lessons other than `leaving`. */
async function seriesDates(tx: Tx, tenantId: number, seriesId: number, leaving: number[]) {
  const rows = await tx
    .select({ id: lessons.id, date: lessons.date })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.recurringLessonId, seriesId)));
  const skip = new Set(leaving);
  return new Set(rows.filter((r) => !skip.has(r.id)).map((r) => r.date));
}

/**
 * DELETE /api/recurring-lessons/:id. Without fromDate the series goes with its lessons; with
 * it, its lessons from that date go and the series ends the day before. Detached lessons stay
 * unless includeChanged; originals with a replacement always stay. Kept lessons of a deleted
 * series are unlinked (recorded), not left to the foreign key's SET NULL.
 */
export async function deleteSeries(tx: Tx, registry: Registry, ctx: Ctx, id: number, fromDate: string | undefined, includeChanged: boolean) {
  await takeBookingLock(tx, ctx.tenantId);
  const before = await lockSeries(tx, registry, ctx, id);
  // Ending a series before it starts is deleting it.
  const whole = !fromDate || fromDate <= (before.start_date as string);
  const all = await seriesLessons(tx, registry, ctx, id, undefined, true);
  const going = all.filter(
    (l) => (whole || (l.date as string) >= fromDate!) && (includeChanged || !l.detached) && (l.replaced_by === null || l.replaced_by === undefined),
  );
  const goingIds = new Set(going.map((l) => l.id));
  const entries: HistoryEntry[] = going.map((l) => ({ entity: 'lessons', entityId: l.id, action: 'delete', before: historyView(lessonsSpec, l) }));
  if (going.length) await tx.delete(lessons).where(and(eq(lessons.tenantId, ctx.tenantId), inArray(lessons.id, [...goingIds])));
  await lessonsChanged(
    tx,
    ctx,
    going.map((l) => ({ before: l, after: null })),
  );

  if (whole) {
    const staying = all.filter((l) => !goingIds.has(l.id));
    if (staying.length) {
      await tx
        .update(lessons)
        .set({ recurringLessonId: null, version: sql`${lessons.version} + 1`, updatedAt: sql`now()` })
        .where(
          and(
            eq(lessons.tenantId, ctx.tenantId),
            inArray(
              lessons.id,
              staying.map((l) => l.id),
            ),
          ),
        );
      for (const l of staying)
        entries.push({ entity: 'lessons', entityId: l.id, action: 'update', before: { recurring_lesson_id: id }, after: { recurring_lesson_id: null } });
    }
    await tx.delete(recurringLessons).where(and(eq(recurringLessons.tenantId, ctx.tenantId), eq(recurringLessons.id, id)));
    entries.unshift({ entity: 'recurring-lessons', entityId: id, action: 'delete', before: historyView(recurringLessonsSpec, before) });
  } else {
    const lastDay = addDays(fromDate!, -1);
    const ending: Row =
      before.repeat === 'CUSTOM'
        ? { dates: ((before.dates as string[] | null) ?? []).filter((d) => d <= lastDay) }
        : { end_type: 'ON_DATE', until_date: lastDay, occurrences: null };
    await tx
      .update(recurringLessonsSpec.table)
      .set({ ...columnValues(recurringLessonsSpec, ending), version: sql`${recurringLessons.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(recurringLessons.tenantId, ctx.tenantId), eq(recurringLessons.id, id)));
    entries.unshift({
      entity: 'recurring-lessons',
      entityId: id,
      action: 'update',
      before: historyView(recurringLessonsSpec, before),
      after: { ...historyView(recurringLessonsSpec, before), ...ending },
    });
  }
  await recordHistoryMany(tx, ctx.tenantId, ctx.actor, entries);
}
