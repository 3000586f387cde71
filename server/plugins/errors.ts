/**
 * Every failure leaves as {error: {code, message, fields?, details?}}: whatever a failure says beyond
 * its code (counts, conflicts, limits) is inside `details`. Expected failures are
 * DomainErrors; framework and driver errors are translated here; anything else is a bug,
 * logged with the request id and answered 500 `internal` without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError, type ErrorCode, type FieldErrors } from '../../domain/index';
import { ReplayedAnswer } from '../db/idempotency';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable';
import { confirmPendingSession } from './auth';

/** PostgreSQL error code of a driver error, also when drizzle wraps it. */
export function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A database that is away for now is the client's cue to retry, not a bug: 503 with Retry-After. */
export function unavailableError(error: unknown): DomainError | null {
  if (!isDatabaseUnavailable(error)) return null;
  return new DomainError('unavailable', undefined, undefined, { details: { retry_after: RETRY_AFTER_SECONDS } });
}

/** What an error is in the API's terms, or null for an unexpected one (a 500). */
export function translate(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  const unavailable = unavailableError(error);
  if (unavailable) return unavailable;
  const code = pgCode(error);
  if (code) {
    // Constraint violations that a module did not turn into a field error itself.
    if (code === '23505') return new DomainError('conflict');
    if (code === '23503') return new DomainError('in-use');
    if (code === '23P01') return new DomainError('conflict');
    if (code === '40001' || code === '40P01') {
      return new DomainError('conflict', 'A concurrent change got in the way; try again.', undefined, { details: { reason: 'concurrent-change' } });
    }
    if (code.startsWith('22') || code === '23502' || code === '23514') {
      return new DomainError('validation', 'A value is not valid.', undefined, { details: { reason: 'value-invalid' } });
    }
    return null;
  }
  const fe = error as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 500) return null;
  const map: Record<number, ErrorCode> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 413: 'too-large', 429: 'rate-limited' };
  if (map[status]) return new DomainError(map[status]);
  // Bad JSON, empty JSON body, unsupported content type, bad content length…
  const fields: FieldErrors = { _: fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'invalid-type' : 'invalid' };
  const message =
    fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? 'Unsupported content type; send application/json.'
      : fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The JSON body is empty.'
        : 'The request body is not valid JSON.';
  return new DomainError('validation', message, fields);
}

export function sendError(reply: FastifyReply, error: DomainError) {
  const retryAfter = error.details?.retry_after;
  if ((error.code === 'rate-limited' || error.code === 'unavailable') && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // A session taken as last seen is confirmed before any other answer: an ended one is 401.
    await confirmPendingSession(request).catch((refusal: unknown) => (error = refusal));
    // A write sent again under its Idempotency-Key: the first answer, as it was.
    if (error instanceof ReplayedAnswer) {
      const { status, contentType, body } = error.answer;
      if (contentType) reply.type(contentType);
      return reply
        .code(status ?? 200)
        .header('idempotency-replayed', 'true')
        .send(body || undefined);
    }
    const known = translate(error);
    if (known) {
      if (known.code === 'unavailable') request.log.warn({ err: error }, 'database unavailable');
      else if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(reply, known);
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return sendError(reply, new DomainError('internal', `Something went wrong on our side (request ${request.id}).`));
  });
});

/**
 * What Fastify's router refuses before any route or hook runs (a path segment longer than the
 * router allows, a path that is not valid percent-encoding), in the API's error format too.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .code(414)
      .type('application/json; charset=utf-8')
      .send({ error: { code: 'too-large', message: 'The URL is too long.' } });
  }
  return sendError(reply, new DomainError('validation', 'The URL is not valid.', { _: 'invalid-format' }));
}
