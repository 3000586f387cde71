/**
 * Sign-in rate limits, counted in the database so that all API processes share them.
 *
 * An attempt is reserved (its row written) before the password is checked, under advisory
 * locks on the budgets it draws from, so however many attempts arrive at once — in one
 * process or in several on one PostgreSQL — at most the limit of them reach the password
 * check. Two lanes:
 *  - untrusted: failed attempts per name (per centre, or one budget for a ROOT name across
 *    all centres) since its last success, and all untrusted attempts per client address;
 *  - trusted (a valid device cookie for that name): failed attempts per device only, so an
 *    attacker exhausting the untrusted budgets does not lock the real person out.
 */
import { and, count, eq, gt, inArray, isNull, lt, min, ne, or, sql } from 'drizzle-orm';
import { DomainError, ERASED_VALUE } from '../../../domain/index';
import type { Config } from '../../config';
import type { Database, Tx } from '../../db/types';
import { platform, withPlatform } from '../../db/doors';
import { loginAttempts, rootUsers } from '../../db/schema/index';
import { deviceCookieName, deviceOf, nameKey } from './device-cookies';

export const usernameKey = (username: string) => username.trim().toLowerCase().slice(0, 200);

export interface AttemptKey {
  /** null for a ROOT name (one budget everywhere) or an unknown centre. */
  tenantId: number | null;
  username: string;
  address: string;
  /** The device cookie's id when it is valid for this name. */
  device: string | null;
}

/**
 * Whose budget an attempt draws on: a name that is a ROOT's has one budget across all
 * centres; any other name one per centre. Trusted when the request carries a valid device
 * cookie for that budget's name. Also answers the cookie's name, to set after a success.
 */
export async function attemptKeyOf(
  database: Database,
  deviceKey: Buffer,
  request: { tenantId: number | null; username: string; address: string; cookies: Record<string, string | undefined> },
): Promise<{ key: AttemptKey; cookieName: string; budgetKey: string }> {
  const name = usernameKey(request.username);
  const [root] = await platform(database).select({ id: rootUsers.id }).from(rootUsers).where(sql`lower(${rootUsers.username}) = ${name}`).limit(1);
  const tenantId = root ? null : request.tenantId;
  const budgetKey = nameKey(tenantId, name);
  const cookieName = deviceCookieName(budgetKey);
  const device = deviceOf(deviceKey, budgetKey, request.cookies[cookieName]);
  return { key: { tenantId, username: name, address: request.address, device }, cookieName, budgetKey };
}

const tenantIs = (tenantId: number | null) => (tenantId === null ? isNull(loginAttempts.tenantId) : eq(loginAttempts.tenantId, tenantId));

/** Serialises every reservation drawing on one budget, in all processes; released at commit. */
const lock = (tx: Tx, name: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`frontis-login:${name}`}, 0))`);

/** The last reservation waiting for each budget in this process: the next one waits for it. */
const turns = new Map<string, Promise<void>>();

/**
 * Runs fn once this process's earlier reservations on the same budgets are done. Without it,
 * a burst against one name would have every one of its reservations hold a pooled connection
 * while waiting for the database's lock, and a real person signing in meanwhile (another
 * budget) would wait for a connection until the pool gave up (503). With it, one connection
 * per process waits for a budget; the database's lock still orders the processes.
 */
async function inTurn<T>(budgets: readonly string[], fn: () => Promise<T>): Promise<T> {
  const done: Array<() => void> = [];
  try {
    for (const budget of budgets) {
      const before = turns.get(budget);
      let finish!: () => void;
      const mine = new Promise<void>((resolve) => (finish = resolve));
      const last = before ? before.then(() => mine) : mine;
      turns.set(budget, last);
      done.push(() => {
        finish();
        if (turns.get(budget) === last) turns.delete(budget);
      });
      await before;
    }
    return await fn();
  } finally {
    for (const finish of done.reverse()) finish();
  }
}

type Budget = { n: number; oldest: Date | null };

async function budget(tx: Tx, where: ReturnType<typeof and>): Promise<Budget> {
  const [row] = await tx
    .select({ n: count(), oldest: min(loginAttempts.at) })
    .from(loginAttempts)
    .where(where);
  return row ?? { n: 0, oldest: null };
}

function refuse(windowSeconds: number, oldest: Date | null): never {
  const retryAfter = Math.max(1, Math.ceil(((oldest?.getTime() ?? Date.now()) + windowSeconds * 1000 - Date.now()) / 1000));
  throw new DomainError('rate-limited', undefined, undefined, { details: { retry_after: retryAfter } });
}

/**
 * Reserves one attempt, or throws 429 rate-limited (with Retry-After seconds) when its
 * budget is spent. The reservation counts as a failure until settleLoginAttempt marks it.
 */
export async function reserveLoginAttempt(database: Database, limits: Config['loginRateLimit'], key: AttemptKey): Promise<number> {
  const name = usernameKey(key.username);
  const address = key.address.slice(0, 100);
  const since = new Date(Date.now() - limits.windowSeconds * 1000);
  // Always name before address, so two reservations never wait for each other in a circle.
  const budgets = key.device ? [`device:${key.device}`] : [`name:${key.tenantId ?? 0}:${name}`, `address:${address}`];
  return inTurn(budgets, () =>
    withPlatform(database, async (tx) => {
      for (const held of budgets) await lock(tx, held);
      if (key.device) {
        const byDevice = await budget(tx, and(eq(loginAttempts.device, key.device), eq(loginAttempts.succeeded, false), gt(loginAttempts.at, since)));
        if (byDevice.n >= limits.perUser) refuse(limits.windowSeconds, byDevice.oldest);
      } else {
        const byAddress = await budget(tx, and(eq(loginAttempts.address, address), isNull(loginAttempts.device), gt(loginAttempts.at, since)));
        if (byAddress.n >= limits.perAddress) refuse(limits.windowSeconds, byAddress.oldest);
        const byName = await budget(
          tx,
          and(
            tenantIs(key.tenantId),
            eq(loginAttempts.usernameKey, name),
            isNull(loginAttempts.device),
            eq(loginAttempts.succeeded, false),
            gt(loginAttempts.at, since),
          ),
        );
        if (byName.n >= limits.perUser) refuse(limits.windowSeconds, byName.oldest);
      }
      const [row] = await tx
        .insert(loginAttempts)
        .values({ tenantId: key.tenantId, usernameKey: name, address, device: key.device, succeeded: false })
        .returning({ id: loginAttempts.id });
      return row!.id;
    }),
  );
}

/**
 * Marks a reserved attempt as a success. It clears the failures of its own lane: an
 * untrusted success those of the name, a trusted one those of its device (so a success on a
 * known device never hands an attacker a fresh untrusted budget).
 */
export async function settleLoginAttempt(database: Database, attemptId: number, key: AttemptKey): Promise<void> {
  const name = usernameKey(key.username);
  await withPlatform(database, async (tx) => {
    await tx.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId));
    const lane = key.device
      ? eq(loginAttempts.device, key.device)
      : and(tenantIs(key.tenantId), eq(loginAttempts.usernameKey, name), isNull(loginAttempts.device));
    await tx.delete(loginAttempts).where(and(lane, eq(loginAttempts.succeeded, false), ne(loginAttempts.id, attemptId)));
  });
}

/** Drops attempts older than any window could need (run by jobs/cleanup.ts). */
export async function pruneLoginAttempts(database: Database, windowSeconds: number): Promise<void> {
  await platform(database)
    .delete(loginAttempts)
    .where(lt(loginAttempts.at, sql`now() - make_interval(secs => ${windowSeconds * 2})`));
}

/**
 * Erasing a person (docs/rules.md, Personal data): the centre's sign-in attempts under her
 * names (her portal username, her e-mail address) keep their place in the client addresses'
 * budgets but no longer say whose they were. Attempts at no known centre are included.
 */
export async function forgetAttemptNames(database: Database, tenantId: number, names: readonly string[]): Promise<void> {
  const keys = [...new Set(names.map(usernameKey))].filter((k) => k !== '');
  if (!keys.length) return;
  await withPlatform(database, (tx) =>
    tx
      .update(loginAttempts)
      .set({ usernameKey: ERASED_VALUE })
      .where(and(or(eq(loginAttempts.tenantId, tenantId), isNull(loginAttempts.tenantId)), inArray(loginAttempts.usernameKey, keys))),
  );
}
