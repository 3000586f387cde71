/**
 * Teachers: each is also a TEACHER sign-in (a users row, created in the same transaction).
 * Names and contact details are kept in step on both rows. Deleting a teacher keeps the row
 * for lessons, notes and history, ends its sign-in, and hides it from lists unless asked
 * (`deleted=true`).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { TEACHERS } from '../../../domain/index';
import { teachers, teacherSubjects, users } from '../../db/schema/index';
import { hashPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import type { ResourceSpec } from '../crud/spec';
import { historyView } from '../crud/write';
import { recordHistory } from '../history/record';
import { insertUser, updateUser, type UserPatch } from '../users/repository';
import { ownOnly } from './scope';

/** Fields the users row repeats, so the sign-in shows the same name. */
const SHARED = ['first_name', 'last_name', 'email', 'phone'] as const;
const PASSWORD_HASH = '__password_hash';

export const teachersSpec: ResourceSpec = {
  def: TEACHERS,
  table: teachers,
  label: sql`trim(${teachers.firstName} || ' ' || ${teachers.lastName})`,
  deletedAt: teachers.deletedAt,
  join: { table: users, on: and(eq(users.tenantId, teachers.tenantId), eq(users.id, teachers.userId))!, fields: { username: users.username } },
  shown: { user_id: teachers.userId },
  scope: (ctx) => (ownOnly(ctx, 'teachers') ? eq(teachers.userId, ctx.actor!.id) : undefined),
  links: {
    subject_ids: { table: teacherSubjects, tenantId: teacherSubjects.tenantId, owner: teacherSubjects.teacherId, other: teacherSubjects.subjectId },
  },
  async listExtras() {
    return {
      fields: [{ name: 'deleted', type: 'BOOLEAN', filterable: true }],
      where(query) {
        const filter = query.filters.find((f) => f.field === 'deleted');
        if (!filter) return [isNull(teachers.deletedAt)];
        return [inArray(sql<boolean>`(${teachers.deletedAt} is not null)`, filter.values as boolean[])];
      },
    };
  },
  // argon2 takes tens of milliseconds: hash before the transaction opens.
  async prepareCreate(input) {
    const { password, confirm_password: _c, ...rest } = input;
    return { ...rest, [PASSWORD_HASH]: await hashPassword(String(password)) };
  },
  async beforeWrite({ tx, ctx, input, before }) {
    if (before) return;
    const user = await insertUser(tx, ctx.tenantId, ctx.actor, {
      username: String(input.username),
      passwordHash: String(input[PASSWORD_HASH]),
      role: 'TEACHER',
      first_name: String(input.first_name),
      last_name: String(input.last_name),
      email: (input.email as string | null | undefined) ?? null,
      phone: (input.phone as string | null | undefined) ?? null,
    });
    return { user_id: user.id };
  },
  async afterWrite({ tx, ctx, input, before, after }) {
    if (!before) return;
    const patch: UserPatch = {};
    for (const name of SHARED) if (name in input) (patch as Record<string, unknown>)[name] = after[name];
    if (Object.keys(patch).length) await updateUser(tx, ctx.tenantId, ctx.actor, after.user_id as number, patch, undefined);
  },
  async remove(tx, ctx, before) {
    if (before.deleted === true) return;
    await tx
      .update(teachers)
      .set({ deletedAt: sql`now()`, version: sql`${teachers.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(teachers.tenantId, ctx.tenantId), eq(teachers.id, before.id)));
    const userId = before.user_id as number;
    await updateUser(tx, ctx.tenantId, ctx.actor, userId, { status: 'INACTIVE' }, undefined);
    await revokeUserSessions(tx, ctx.tenantId, userId, 'deactivated');
    await recordHistory(tx, ctx.tenantId, ctx.actor, {
      entity: 'teachers',
      entityId: before.id,
      action: 'delete',
      before: { ...historyView(teachersSpec, before), deleted: false },
      after: { deleted: true },
    });
  },
};
