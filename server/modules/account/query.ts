/** The report routes' query strings: only the names they know, months and years within the books. */
import { DomainError, type FieldErrors, isMonth, MAX_REPORT_MONTHS, MONEY_DATE_MAX, MONEY_DATE_MIN, monthsFromTo } from '../../../domain/index';
import { handReadQuery } from '../../plugins/openapi-document';

type RawQuery = Record<string, string | string[] | undefined>;

/** Reads the named parameters; a repeated, unknown or missing one is a 400. */
export function readQuery<K extends string>(raw: unknown, names: readonly K[], check: (name: K, value: string) => FieldErrors[string] | undefined) {
  const query = (raw ?? {}) as RawQuery;
  const fields: FieldErrors = {};
  const out = {} as Record<K, string>;
  for (const key of Object.keys(query)) if (!(names as readonly string[]).includes(key)) fields[key.slice(0, 64)] = 'unknown-field';
  for (const name of names) {
    const value = query[name];
    if (value === undefined || value === '') fields[name] = 'required';
    else if (typeof value !== 'string') fields[name] = 'invalid-type';
    else {
      const code = check(name, value);
      if (code) fields[name] = code;
      else out[name] = value;
    }
  }
  if (Object.keys(fields).length) throw new DomainError('validation', 'The query is not valid.', fields);
  return out;
}

export function monthCode(value: string) {
  if (isMonth(value)) return undefined;
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) return 'invalid-format' as const;
  return value < MONEY_DATE_MIN ? ('too-small' as const) : ('too-large' as const);
}

export function yearCode(value: string) {
  if (!/^\d{4}$/.test(value)) return 'invalid-format' as const;
  if (value < MONEY_DATE_MIN.slice(0, 4)) return 'too-small' as const;
  if (value > MONEY_DATE_MAX.slice(0, 4)) return 'too-large' as const;
  return undefined;
}

/** from..to, both YYYY-MM, in order and at most MAX_REPORT_MONTHS long. */
export function readRange(raw: unknown): { from: string; to: string } {
  const { from, to } = readQuery(raw, ['from', 'to'] as const, (_n, v) => monthCode(v));
  if (to < from) throw new DomainError('validation', 'The range ends before it starts.', { to: 'too-small' });
  if (monthsFromTo(from, to).length > MAX_REPORT_MONTHS) {
    throw new DomainError('validation', `A range spans at most ${MAX_REPORT_MONTHS} months.`, { to: 'too-large' });
  }
  return { from, to };
}

/** The report routes' queries for their route schemas and the API description; readQuery checks them. */
export const MONTH_QUERY = handReadQuery(
  { month: { description: `The month, YYYY-MM, from ${MONEY_DATE_MIN.slice(0, 7)} to ${MONEY_DATE_MAX.slice(0, 7)}.` } },
  ['month'],
);
export const YEAR_QUERY = handReadQuery({ year: { description: `The year, YYYY, from ${MONEY_DATE_MIN.slice(0, 4)} to ${MONEY_DATE_MAX.slice(0, 4)}.` } }, [
  'year',
]);
export const RANGE_QUERY = handReadQuery(
  {
    from: { description: 'First month, YYYY-MM.' },
    to: { description: `Last month, YYYY-MM: at most ${MAX_REPORT_MONTHS} months from \`from\`.` },
  },
  ['from', 'to'],
);
