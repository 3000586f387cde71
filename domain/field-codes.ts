// The codes of a refused field, apart from the error module so that the answers' schemas
// (answers/imports.ts) and the lessons' rules take them without a circle through errors.ts.

// Why one field was refused (`fields.<code>` in the client's translations).
export const FIELD_CODES = [
  'required',
  'invalid-type',
  'too-short',
  'too-long',
  'too-small',
  'too-large',
  'invalid-format',
  'invalid-option',
  'unknown-field',
  'mismatch',
  'taken',
  'invalid',
  // a slug or key that is a reserved word, a value given twice where each must be unique
  'reserved',
  'duplicate',
  // a reference given by name (an import) that names no record, or more than one
  'no-match',
  'ambiguous',
  // portal access given to a guardian with no e-mail address to invite
  'needs-email',
  // a contract's payer who is not a guardian of its student
  'not-a-guardian',
  // a staff username that is a guardian's e-mail address (her portal username)
  'guardian-email',
] as const;
export type FieldCode = (typeof FIELD_CODES)[number];

export type FieldErrors = Record<string, FieldCode>;
