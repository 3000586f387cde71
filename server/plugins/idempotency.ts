/**
 * Exactly once (docs/rules.md, "Exactly once"): a write (POST, PUT, PATCH, DELETE) that carries
 * an Idempotency-Key answers, when sent again, what it answered the first time, without doing
 * anything again. Before the handler, a key already remembered is answered from the database
 * (its answer again; 422 for another request; 409 `in-progress` while its first request has not
 * answered after a short wait). Otherwise the handler runs with the key known to the doors
 * (db/idempotency.ts): its write transaction reserves the key, and the answer is filled in
 * here before it leaves. Sign-in, refresh and other requests without a session take no key.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/index';
import type { Database } from '../db/types';
import { withTenant } from '../db/doors';
import { queryRows } from '../db/statements';
import { answerColumns, judgeTaken, runKeyed, type KeyedRequest, type RememberedAnswer } from '../db/idempotency';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer given again from what was remembered. */
export const REPLAYED_HEADER = 'idempotency-replayed';
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a retry waits for the first request's answer before 409 `in-progress`. */
const WAIT_MS = 2000;
const POLL_MS = 50;

/** What identifies a request for its key: method, URL and body (a different one is 422). */
function requestHash(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) hash.update(body);
  else if (body !== undefined && body !== null) hash.update(JSON.stringify(body));
  return hash.digest('hex');
}

const remembered = async (database: Database, keyed: KeyedRequest): Promise<RememberedAnswer | undefined> => {
  const [row] = await withTenant(database, keyed.tenantId, (tx) =>
    queryRows<RememberedAnswer>(
      tx,
      sql`select ${answerColumns} from idempotency_keys where tenant_id = ${keyed.tenantId} and actor = ${keyed.actor} and key = ${keyed.key}`,
    ),
  );
  return row;
};

/** The key's answer, waiting a little for a first request that has written but not yet answered. */
async function waitForAnswer(database: Database, keyed: KeyedRequest): Promise<RememberedAnswer | undefined> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const found = await remembered(database, keyed);
    if (!found || found.status !== null || found.requestHash !== keyed.requestHash || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const asText = (payload: unknown): string | null => {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null;
};

export const idempotencyPlugin = fp(async (app: FastifyInstance, { database }: { database: Database }) => {
  const keys = new WeakMap<FastifyRequest, KeyedRequest>();

  app.addHook('preHandler', (request, _reply, done) => {
    if (!WRITES.has(request.method)) return done();
    const key = request.headers[IDEMPOTENCY_HEADER];
    const { actor, tenant } = request;
    // Public writes (sign-in, a provider's webhook, keyed by the provider's own id) take no key.
    if (key === undefined || !actor || !tenant) return done();
    if (typeof key !== 'string' || !VISIBLE_ASCII.test(key)) {
      return done(new DomainError('validation', 'The Idempotency-Key header must be 1-255 visible ASCII characters.', { 'idempotency-key': 'invalid-format' }));
    }
    const keyed: KeyedRequest = {
      tenantId: tenant.id,
      actor: `${actor.kind}:${actor.id}`,
      key,
      requestHash: requestHash(request),
      reserving: false,
      reserved: false,
      done: false,
    };
    waitForAnswer(database, keyed).then(
      (found) => {
        if (found) return done(judgeTaken(keyed, found));
        keys.set(request, keyed);
        runKeyed(keyed, done);
      },
      (error: unknown) => done(error as Error),
    );
  });

  // Before compression (registered ahead of it): the answer is remembered as the handler gave it.
  app.addHook('onSend', async (request, reply, payload) => {
    const keyed = keys.get(request);
    if (!keyed || keyed.done) return payload;
    keyed.done = true;
    if (keyed.answerPending && reply.statusCode === 409) {
      // Its first request wrote while this one waited, and answers any moment: give that answer.
      const found = await waitForAnswer(database, keyed).catch(() => undefined);
      if (found?.status == null) return payload;
      reply.code(found.status).header(REPLAYED_HEADER, 'true');
      if (found.contentType) reply.header('content-type', found.contentType);
      return found.body ?? '';
    }
    if (!keyed.reserved) return payload;
    const contentType = reply.getHeader('content-type');
    const body = asText(payload);
    try {
      await withTenant(database, keyed.tenantId, (tx) =>
        tx.execute(
          sql`update idempotency_keys set status = ${reply.statusCode}, content_type = ${typeof contentType === 'string' ? contentType : null}, body = ${body ?? ''}
              where tenant_id = ${keyed.tenantId} and actor = ${keyed.actor} and key = ${keyed.key}`,
        ),
      );
    } catch (error) {
      // The write stands; a retry with this key is answered 409 in-progress rather than done twice.
      request.log.error({ err: error }, 'the answer of an Idempotency-Key could not be remembered');
    }
    return payload;
  });
});
