import type { HttpError } from '@refinedev/core';
import type { ErrorDetails } from '../../domain/errors';
import { formatMoney } from '../../domain/money-format';
import { type ApiError, type ApiErrorBody, toApiError } from './http';
import { currentLanguage, i18n } from './i18nProvider';

/** What the server says beside an error code (domain/errors.ts), for the client to phrase in the user's language. */
export type { ErrorDetails };

/** An error already through toHttpError (what Refine's hooks hold in `query.error`). */
export interface TranslatedError extends HttpError {
  code: string;
  sessionCleared: boolean;
  details?: ErrorDetails;
}

const isTranslated = (error: unknown): error is TranslatedError =>
  typeof error === 'object' && error !== null && 'code' in error && 'statusCode' in error && !(error instanceof Error);

/** "347 lessons" (`details.used_by`, for answers that name the users only in words) -> {lessons: 347}. */
function usesFromWords(words: unknown): Record<string, number> | undefined {
  if (!Array.isArray(words)) return undefined;
  const uses: Record<string, number> = {};
  for (const word of words) {
    const match = typeof word === 'string' ? /^(\d+) ([a-z-]+)$/.exec(word) : null;
    if (match) uses[match[2]!] = Number(match[1]);
  }
  return Object.keys(uses).length ? uses : undefined;
}

function detailsOf(apiError: ApiError): ErrorDetails | undefined {
  const details = (apiError.body as ApiErrorBody | undefined)?.error?.details;
  if (!details || typeof details !== 'object') return undefined;
  if (details.uses) return details;
  const uses = usesFromWords(details.used_by);
  return uses ? { ...details, uses } : details;
}

/** "347 lessons and 8 recurring lessons", in the user's language and plural forms. */
export function usesText(uses: Record<string, number>): string {
  const parts = Object.entries(uses)
    .filter(([, count]) => count > 0)
    .map(([resource, count]) =>
      i18n.exists(`errors.uses.${resource}`, { count }) ? i18n.t(`errors.uses.${resource}`, { count }) : i18n.t('errors.uses.records', { count }),
    );
  return new Intl.ListFormat(currentLanguage(), { type: 'conjunction' }).format(parts);
}

/** A reason's parameters: counts as they are, a lesson's statuses in the user's words. */
function reasonParams(details: ErrorDetails): Record<string, unknown> {
  const status = (value: unknown) => (typeof value === 'string' ? i18n.t(`enums.${value}`, { defaultValue: value }) : undefined);
  return { ...details, from: status(details.from), to: status(details.to), status: status(details.status) };
}

function codeAndDetails(error: unknown): { code: string; details?: ErrorDetails } {
  if (isTranslated(error)) return error;
  const apiError = toApiError(error);
  return { code: apiError.code, details: detailsOf(apiError) };
}

/**
 * The text of a server error in the user's language, from its code and structured details;
 * the server's own (English) message is never shown, an unknown code gets a generic text.
 */
export function errorText(error: unknown): string {
  const { code, details } = codeAndDetails(error);
  if (code === 'in-use' && details?.uses && Object.values(details.uses).some((n) => n > 0)) {
    return i18n.t('errors.inUseBy', { list: usesText(details.uses) });
  }
  if (code === 'conflict' && typeof details?.owed === 'number') {
    return i18n.t('errors.overpaid', { owed: formatMoney(details.owed) });
  }
  if (details?.reason) {
    const key = `errors.reasons.${details.reason}`;
    const params = reasonParams(details);
    if (i18n.exists(key, params)) return i18n.t(key, params);
  }
  return i18n.exists(`errors.${code}`) ? i18n.t(`errors.${code}`) : i18n.t('errors.unknown');
}

/** Field codes translated (`fields.<code>`), keyed by field name, for antd forms. */
function fieldErrors(error: unknown): Record<string, string> {
  if (isTranslated(error)) return Object.fromEntries(Object.entries(error.errors ?? {}).map(([k, v]) => [k, String(v)]));
  const apiError = toApiError(error);
  return Object.fromEntries(
    Object.entries(apiError.fields).map(([field, code]) => [field, i18n.exists(`fields.${code}`) ? i18n.t(`fields.${code}`) : i18n.t('fields.invalid')]),
  );
}

/** What Refine expects from a data provider: translated message, status, field errors. */
export function toHttpError(error: unknown): TranslatedError {
  const apiError: ApiError = toApiError(error);
  const details = detailsOf(apiError);
  return {
    name: apiError.code,
    message: errorText(apiError),
    statusCode: apiError.statusCode,
    code: apiError.code,
    sessionCleared: apiError.sessionCleared,
    errors: fieldErrors(apiError),
    ...(details ? { details } : {}),
  };
}
