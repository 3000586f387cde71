/**
 * Teachers: each is also a TEACHER sign-in (a users row, created in the same transaction).
 * Names and contact details are kept in step on both rows. Deleting a teacher keeps the row
 * for lessons, notes and history, ends its sign-in, and hides it from lists unless asked
 * (`deleted=true`).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { TEACHERS } from '../../../domain/index';
import { teachers, teacherSubjects, users } from '../../db/schema/index';
import { personLabel } from '../../db/schema/columns';
import { prepareInput } from '../../engine/input';
import type { ResourceSpec } from '../../engine/spec';
import { createRow, historyView, updateRow } from '../../engine/write';
import { recordHistory } from '../../engine/history';
import { userAccounts } from '../users/spec';
import { ownOnly } from './scope';

/** Fields the users row repeats, so the sign-in shows the same name. */
const SHARED = ['first_name', 'last_name', 'email', 'phone'] as const;
/** The sign-in's password as userAccounts stores it, carried from prepare() into the transaction. */
const PASSWORD_HASH = '__password_hash';

export const teachersSpec: ResourceSpec = {
  def: TEACHERS,
  table: teachers,
  ...personLabel(teachers),
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
  // The sign-in's password is hashed here, before the transaction opens (argon2 is slow).
  async prepare(input, action) {
    if (action === 'update') return input;
    const { password, confirm_password: _c, ...rest } = input;
    return { ...rest, [PASSWORD_HASH]: (await prepareInput(userAccounts, { password }, 'create')).password };
  },
  async beforeWrite({ tx, ctx, registry, input, before }) {
    if (before) return;
    const shared = Object.fromEntries(SHARED.map((name) => [name, input[name] ?? null]));
    const account = { ...shared, username: input.username, password: input[PASSWORD_HASH], role: 'TEACHER', status: 'ACTIVE' };
    const user = await createRow(tx, registry, ctx, userAccounts, account);
    return { user_id: user.id };
  },
  async afterWrite({ tx, ctx, registry, input, before, after }) {
    if (!before) return;
    const patch: Record<string, unknown> = {};
    for (const name of SHARED) if (name in input) patch[name] = after[name];
    if (Object.keys(patch).length) await updateRow(tx, registry, ctx, userAccounts, after.user_id as number, patch, undefined);
  },
  async remove(tx, ctx, before, _options, registry) {
    if (before.deleted === true) return;
    await tx
      .update(teachers)
      .set({ deletedAt: sql`now()`, version: sql`${teachers.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(teachers.tenantId, ctx.tenantId), eq(teachers.id, before.id)));
    const userId = before.user_id as number;
    // The sign-in's own hooks end its sessions.
    await updateRow(tx, registry, ctx, userAccounts, userId, { status: 'INACTIVE' }, undefined);
    await recordHistory(tx, ctx.tenantId, ctx.actor, {
      entity: 'teachers',
      entityId: before.id,
      action: 'delete',
      before: { ...historyView(teachersSpec, before), deleted: false },
      after: { deleted: true },
    });
  },
};
