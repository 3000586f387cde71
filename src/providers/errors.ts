import type { HttpError } from '@refinedev/core';
import { type ApiError, toApiError } from './http';
import { i18n } from './i18nProvider';

/** The translated text of a server error code (`errors.<code>`), falling back to its message. */
export function errorText(error: unknown): string {
  const apiError = toApiError(error);
  return i18n.t(`errors.${apiError.code}`, { defaultValue: apiError.message || i18n.t('errors.internal') });
}

/** Field codes translated (`fields.<code>`), keyed by field name, for antd forms. */
export function fieldErrors(error: unknown): Record<string, string> {
  const apiError = toApiError(error);
  return Object.fromEntries(Object.entries(apiError.fields).map(([field, code]) => [field, i18n.t(`fields.${code}`, { defaultValue: code })]));
}

/** What Refine expects from a data provider: translated message, status, field errors. */
export interface TranslatedError extends HttpError {
  code: string;
  sessionCleared: boolean;
}

export function toHttpError(error: unknown): TranslatedError {
  const apiError: ApiError = toApiError(error);
  return {
    name: apiError.code,
    message: errorText(apiError),
    statusCode: apiError.statusCode,
    code: apiError.code,
    sessionCleared: apiError.sessionCleared,
    errors: fieldErrors(apiError),
  };
}
