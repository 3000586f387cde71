/**
 * Tenant users (ADMIN, SECRETARY, TEACHER) on the CRUD engine. `userAccounts` is the sign-in
 * itself: its password kept as an argon2 hash, its sessions ended when the password changes
 * or the account is deactivated. `usersSpec` (/api/users) adds the staff rules: one gives
 * only the roles MANAGEABLE_ROLES_BY allows (TEACHER accounts come with teachers), and
 * nobody deactivates or demotes their own account.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { DomainError, MANAGEABLE_ROLES_BY, USERS } from '../../../domain/index';
import type { Actor } from '../../context';
import type { Tx } from '../../db/types';
import { teachers, users } from '../../db/schema/index';
import { hashPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { refuseLookAlikeUsername } from '../auth/usernames';
import { refuseGuardianEmail } from './guardian-emails';
import { announce } from '../notifications/create';
import type { Ctx, ResourceSpec } from '../../engine/spec';

const isSelf = (actor: Actor | null, id: number): actor is Actor => actor?.kind === 'user' && actor.id === id;
/** The system itself (bootstrap) may give any role. */
const manageable = (actor: Actor | null, role: unknown) => !actor || (MANAGEABLE_ROLES_BY[actor.role] as readonly unknown[]).includes(role);

/** A deleted teacher keeps its user row for history; that sign-in stays off for good. */
async function isDeletedTeacher(tx: Tx, ctx: Ctx, userId: number) {
  const [row] = await tx
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.tenantId, ctx.tenantId), eq(teachers.userId, userId), isNotNull(teachers.deletedAt)))
    .limit(1);
  return row !== undefined;
}

export const userAccounts: ResourceSpec = {
  def: USERS,
  table: users,
  label: sql`trim(${users.firstName} || ' ' || ${users.lastName})`,
  unique: { users_username_key: 'username' },
  // argon2 takes tens of milliseconds and must not hold locks.
  secrets: { password: { column: 'password_hash', prepare: (password) => hashPassword(String(password)) } },
  deactivates: true,
  async beforeWrite({ tx, ctx, input, before }) {
    if (typeof input.username === 'string') {
      await refuseLookAlikeUsername(tx, ctx.tenantId, input.username, before ? Number(before.id) : undefined);
      // a guardian's sign-in is made by her invitation, never here: any username here is staff
      if (input.username !== before?.username) await refuseGuardianEmail(tx, ctx.tenantId, input.username);
    }
    return undefined;
  },
  async afterWrite({ tx, ctx, input, before, after }) {
    if (!before) return;
    // The one changing their own password keeps the session they did it from.
    if ('password' in input)
      await revokeUserSessions(tx, ctx.tenantId, after.id, 'password-changed', isSelf(ctx.actor, after.id) ? ctx.actor.sessionId : undefined);
    if (after.status === 'INACTIVE' && before.status !== 'INACTIVE') await revokeUserSessions(tx, ctx.tenantId, after.id, 'deactivated');
    // Open notification streams hold the role they opened with: they end and reconnect as what the account now is.
    if (after.role !== before.role || after.status !== before.status) await announce(tx, ctx.tenantId, 'a', [after.id as number]);
  },
};

export const usersSpec: ResourceSpec = {
  ...userAccounts,
  postUpdates: true,
  // A guardian's portal sign-in is kept with her (guardians' portal access), never here: not listed, 404.
  scope: () => sql`${users.role} <> 'GUARDIAN'`,
  async beforeWrite(args) {
    const { tx, ctx, input, before } = args;
    await userAccounts.beforeWrite?.(args);
    const { actor } = ctx;
    const role = input.role;
    if (!before) {
      if (!manageable(actor, role)) throw new DomainError('validation', 'This role cannot be given here.', { role: 'invalid-option' });
      return undefined;
    }
    if (role !== undefined && role !== before.role) {
      if (!manageable(actor, role) || !manageable(actor, before.role)) {
        throw new DomainError('validation', 'This role cannot be given here.', { role: 'invalid-option' });
      }
      if (isSelf(actor, before.id)) throw new DomainError('conflict', 'You cannot change your own role.', { role: 'invalid' });
    }
    if (input.status === 'INACTIVE' && isSelf(actor, before.id)) {
      throw new DomainError('conflict', 'You cannot deactivate your own account.', { status: 'invalid' });
    }
    if (input.status === 'ACTIVE' && before.status !== 'ACTIVE' && before.role === 'TEACHER' && (await isDeletedTeacher(tx, ctx, before.id))) {
      throw new DomainError('conflict', 'This teacher was deleted; their sign-in cannot be reactivated.', { status: 'invalid' });
    }
    return undefined;
  },
};
