/**
 * What a TEACHER may see beyond her own lessons: her own teacher row, the classes she
 * teaches (any lesson or series of hers names them) and the students of those classes.
 * Reads narrow to these, and so do the references a TEACHER may write (a note's student_id,
 * teacher_id and class_id), so no write can tell her about a row she may not read.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isOwnOnly, type Area } from '../../../domain/index';
import { classStudents, lessons, recurringLessons, teachers } from '../../db/schema/index';
import type { Ctx } from '../../engine/spec';

/** True when the caller's role is narrowed to its own rows in `area` (the permission matrix says so). */
export const ownOnly = (ctx: Ctx, area: Area) => !!ctx.actor && isOwnOnly(ctx.actor.role, area);

/** The caller's teacher rows (a TEACHER sign-in has one). */
export const ownTeacherIds = (ctx: Ctx): SQL =>
  sql`select ${teachers.id} from ${teachers} where ${and(eq(teachers.tenantId, ctx.tenantId), eq(teachers.userId, ctx.actor!.id))}`;

/** Classes the caller teaches. Raw table names: these subqueries sit inside reads of other tables. */
export const ownClassIds = (ctx: Ctx): SQL =>
  sql`select l.class_id from ${lessons} l where l.tenant_id = ${ctx.tenantId} and l.class_id is not null and l.teacher_id in (${ownTeacherIds(ctx)})
    union select r.class_id from ${recurringLessons} r where r.tenant_id = ${ctx.tenantId} and r.class_id is not null and r.teacher_id in (${ownTeacherIds(ctx)})`;

export const inOwnClasses = (ctx: Ctx, classColumn: AnyPgColumn): SQL => sql`${classColumn} in (${ownClassIds(ctx)})`;

export const ofOwnClasses = (ctx: Ctx, studentColumn: AnyPgColumn): SQL =>
  sql`${studentColumn} in (select cs.student_id from ${classStudents} cs where cs.tenant_id = ${ctx.tenantId} and cs.class_id in (${ownClassIds(ctx)}))`;
