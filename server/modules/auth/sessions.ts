/**
 * Sessions and refresh-token families, in the database so that every API process sees a
 * sign-out, a revoked family or a deactivated user at once.
 */
import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Role } from '../../../domain/index';
import type { Database, Tx } from '../../db/types';
import { platform, withTenant } from '../../db/doors';
import { tenantStatements } from '../../db/read-channels';
import type { ScriptStatement } from '../../db/prepared';
import { refreshTokens, rootUsers, sessions, tenants, users } from '../../db/schema/index';
import type { Actor } from '../../context';
import { hashToken, newPublicId, newRefreshToken } from './tokens';
import { announce } from '../notifications/create';

export type Owner = { kind: 'user' | 'root'; id: number };

export interface SessionUser {
  id: number;
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** The centre's display name (answers to the client only). */
  tenantName?: string;
}

export const subjectOf = (owner: Owner) => `${owner.kind}:${owner.id}`;

export async function createSession(
  tx: Tx,
  tenantId: number,
  owner: Owner,
  meta: { userAgent?: string; address?: string },
): Promise<{ id: number; publicId: string }> {
  const publicId = newPublicId();
  const [row] = await tx
    .insert(sessions)
    .values({
      tenantId,
      publicId,
      userId: owner.kind === 'user' ? owner.id : null,
      rootUserId: owner.kind === 'root' ? owner.id : null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      address: meta.address?.slice(0, 100) ?? null,
    })
    .returning({ id: sessions.id });
  return { id: row!.id, publicId };
}

export async function issueRefreshToken(tx: Tx, tenantId: number, sessionId: number, ttlSeconds: number): Promise<string> {
  const token = newRefreshToken(tenantId);
  await tx.insert(refreshTokens).values({
    tenantId,
    sessionId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/**
 * Ends the tenant's open sessions that meet every condition given, and tells every process
 * (at commit) so the notification streams those sessions opened end within moments.
 */
async function revokeOpen(tx: Tx, tenantId: number, reason: string, ...conditions: (SQL | undefined)[]): Promise<void> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt), ...conditions))
    .returning({ id: sessions.id });
  if (ended.length)
    await announce(
      tx,
      tenantId,
      's',
      ended.map((r) => r.id),
    );
}

export async function revokeSession(tx: Tx, tenantId: number, sessionId: number, reason: string): Promise<void> {
  await revokeOpen(tx, tenantId, reason, eq(sessions.id, sessionId));
}

/** Ends every session of a tenant user, optionally but one (the caller's own). */
export async function revokeUserSessions(tx: Tx, tenantId: number, userId: number, reason: string, exceptSessionId?: number) {
  await revokeOpen(tx, tenantId, reason, eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined);
}

export async function revokeTenantSessions(tx: Tx, tenantId: number, reason: string) {
  await revokeOpen(tx, tenantId, reason);
}

/**
 * A ROOT's sessions live in the tenants they signed in to, so ending them visits each tenant
 * through its own door (rare: password change or deactivation of a ROOT).
 */
export async function revokeRootSessionsEverywhere(database: Database, rootUserId: number, reason: string, except?: { tenantId: number; sessionId: number }) {
  const all = await platform(database).select({ id: tenants.id }).from(tenants);
  for (const { id: tenantId } of all) {
    await withTenant(database, tenantId, (tx) =>
      revokeOpen(
        tx,
        tenantId,
        reason,
        eq(sessions.rootUserId, rootUserId),
        except && except.tenantId === tenantId ? ne(sessions.id, except.sessionId) : undefined,
      ),
    );
  }
}

export type SessionCheck = { status: 'live'; actor: Actor; publicId: string } | { status: 'revoked' } | { status: 'unknown' };

/** The per-request check: the session must exist, be unrevoked, and its account active. */
export async function loadSession(tx: Tx, tenantId: number, sessionId: number): Promise<SessionCheck> {
  const [row] = await tx
    .select({
      publicId: sessions.publicId,
      revokedAt: sessions.revokedAt,
      userId: sessions.userId,
      rootUserId: sessions.rootUserId,
      userName: users.username,
      userRole: users.role,
      userFirst: users.firstName,
      userLast: users.lastName,
      userStatus: users.status,
      rootName: rootUsers.username,
      rootFirst: rootUsers.firstName,
      rootLast: rootUsers.lastName,
      rootStatus: rootUsers.status,
    })
    .from(sessions)
    .leftJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .leftJoin(rootUsers, eq(rootUsers.id, sessions.rootUserId))
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)))
    .limit(1);
  return sessionCheckOf(tenantId, sessionId, row && { ...row, revoked: row.revokedAt !== null });
}

export interface SessionRow {
  publicId: string;
  revoked: boolean;
  userId: number | null;
  rootUserId: number | null;
  userName: string | null;
  userRole: string | null;
  userFirst: string | null;
  userLast: string | null;
  userStatus: string | null;
  rootName: string | null;
  rootFirst: string | null;
  rootLast: string | null;
  rootStatus: string | null;
}

/** loadSession's query in raw SQL, for checkSession(): the same columns, joins and conditions; `$1` the centre, `$2` the session. */
const SESSION_CHECK = `select
  s.public_id as "publicId", (s.revoked_at is not null) as "revoked", s.user_id as "userId", s.root_user_id as "rootUserId",
  u.username as "userName", u.role as "userRole", u.first_name as "userFirst", u.last_name as "userLast", u.status as "userStatus",
  r.username as "rootName", r.first_name as "rootFirst", r.last_name as "rootLast", r.status as "rootStatus"
from sessions s
  left join users u on u.tenant_id = s.tenant_id and u.id = s.user_id
  left join root_users r on r.id = s.root_user_id
where s.tenant_id = $1::int and s.id = $2::int
limit 1`;

/**
 * The session check of one session: its text with the two integers written in (checked by the
 * caller), and as written, which a connection that keeps prepared statements prepares once.
 */
export const sessionCheckStatement = (tenantId: number, sessionId: number): ScriptStatement => ({
  text: SESSION_CHECK.replace('$1', String(tenantId)).replace('$2', String(sessionId)),
  written: { text: SESSION_CHECK, params: [tenantId, sessionId] },
});

/**
 * The per-request check of plugins/auth.ts: loadSession in one round trip (tenantStatements:
 * role frontis_app and app.tenant_id, so RLS applies), against the database on every request,
 * so a revoked session or a deactivated account is refused at once in every process.
 * `along`: read-only statements the route needs anyway (only integers inlined), sent in the
 * same message, in the same tenant view; their rows come back in `along`, in order.
 */
export async function checkSession(
  database: Database,
  tenantId: number,
  sessionId: number,
  along: readonly string[] = [],
): Promise<SessionCheck & { along?: Record<string, unknown>[][] }> {
  if (!Number.isSafeInteger(sessionId) || sessionId <= 0) return { status: 'unknown' };
  const [rows, ...rest] = await tenantStatements(database, tenantId, [sessionCheckStatement(tenantId, sessionId), ...along]);
  return { ...sessionCheckOf(tenantId, sessionId, rows![0] as unknown as SessionRow | undefined), along: rest };
}

/** What a row of the session check says of the session (unknown without a row). */
export function sessionCheckOf(tenantId: number, sessionId: number, row: SessionRow | undefined): SessionCheck {
  if (!row) return { status: 'unknown' };
  if (row.revoked) return { status: 'revoked' };
  const base = { tenantId, sessionId };
  if (row.userId !== null && row.userName !== null && row.userStatus === 'ACTIVE') {
    return {
      status: 'live',
      publicId: row.publicId,
      actor: {
        ...base,
        kind: 'user',
        id: row.userId,
        username: row.userName,
        role: row.userRole as Role,
        firstName: row.userFirst ?? '',
        lastName: row.userLast ?? '',
      },
    };
  }
  if (row.rootUserId !== null && row.rootName !== null && row.rootStatus === 'ACTIVE') {
    return {
      status: 'live',
      publicId: row.publicId,
      actor: {
        ...base,
        kind: 'root',
        id: row.rootUserId,
        username: row.rootName,
        role: 'ROOT',
        firstName: row.rootFirst ?? '',
        lastName: row.rootLast ?? '',
      },
    };
  }
  return { status: 'revoked' };
}

export type RefreshOutcome = { status: 'rotated'; actor: Actor; publicId: string; refreshToken: string } | { status: 'expired' } | { status: 'revoked' };

/**
 * Rotation with reuse detection. The token row is locked so two concurrent uses of one token
 * cannot both succeed: the second sees used_at and ends the whole family. The caller must
 * commit this transaction even when the outcome is 'revoked' (the revocation is the point).
 */
export async function rotateRefreshToken(tx: Tx, tenantId: number, token: string, ttlSeconds: number): Promise<RefreshOutcome> {
  const [row] = await tx
    .select({ id: refreshTokens.id, sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt, expiresAt: refreshTokens.expiresAt })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.tokenHash, hashToken(token))))
    .for('update')
    .limit(1);
  if (!row) return { status: 'expired' };
  if (row.usedAt) {
    await revokeSession(tx, tenantId, row.sessionId, 'refresh-token-reuse');
    return { status: 'revoked' };
  }
  if (row.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
  const session = await loadSession(tx, tenantId, row.sessionId);
  if (session.status !== 'live') {
    await revokeSession(tx, tenantId, row.sessionId, 'account-inactive');
    return { status: 'revoked' };
  }
  await tx
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.id, row.id)));
  await tx
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, row.sessionId)));
  const refreshToken = await issueRefreshToken(tx, tenantId, row.sessionId, ttlSeconds);
  return { status: 'rotated', actor: session.actor, publicId: session.publicId, refreshToken };
}

/** Finds the session a refresh token belongs to (for sign-out), whether used or not. */
export async function sessionOfRefreshToken(tx: Tx, tenantId: number, token: string): Promise<number | null> {
  const [row] = await tx
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.tokenHash, hashToken(token))))
    .limit(1);
  return row?.sessionId ?? null;
}
