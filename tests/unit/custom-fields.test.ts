import { describe, expect, it } from 'vitest';
import {
  createSchema,
  customValuesSchema,
  definitionProblem,
  DomainError,
  parseBody,
  parseListQuery,
  storedValuesFit,
  CLASSES,
  TEACHERS,
  type CustomFieldDefinition,
} from '../../domain';

const school: CustomFieldDefinition = { key: 'school', label: 'Σχολείο', type: 'TEXT' };
const grade: CustomFieldDefinition = { key: 'grade', label: 'Τάξη', type: 'SINGLE_CHOICE', options: ['Α', 'Β', 'Γ'], required: true };
const hours: CustomFieldDefinition = { key: 'hours', label: 'Ώρες', type: 'NUMBER' };
const since: CustomFieldDefinition = { key: 'since', label: 'Από', type: 'DATE' };
const tracks: CustomFieldDefinition = { key: 'tracks', label: 'Κατευθύνσεις', type: 'MULTIPLE_CHOICE', options: ['Θετική', 'Υγείας'] };

describe('custom field values', () => {
  const schema = customValuesSchema([school, grade, hours, since, tracks]);

  it('accepts values of each type', () => {
    const ok = { school: '3ο Λύκειο', grade: 'Β', hours: 4.5, since: '2026-09-01', tracks: ['Υγείας'] };
    expect(schema.parse(ok)).toEqual(ok);
  });

  it.each([
    [{ grade: 'Δ' }, 'grade'],
    [{ grade: 'Α', hours: '4' }, 'hours'],
    [{ grade: 'Α', since: '2026-02-30' }, 'since'],
    [{ grade: 'Α', tracks: ['Θετική', 'Θετική'] }, 'tracks'],
    [{ grade: 'Α', tracks: ['Άλλη'] }, 'tracks'],
    [{ grade: 'Α', school: 'x'.repeat(501) }, 'school'],
    [{ grade: 'Α', nickname: 'x' }, 'nickname'],
    [{}, 'grade'],
  ])('refuses %j at %s', (values, field) => {
    const result = schema.safeParse(values);
    expect(result.success).toBe(false);
    expect(result.error!.issues.some((i) => i.path[0] === field || ('keys' in i && i.keys.includes(field)))).toBe(true);
  });

  it('tells whether stored values fit a changed definition', () => {
    expect(storedValuesFit({ ...grade, options: ['Α', 'Β'] }, ['Α', 'Β'])).toBe(true);
    expect(storedValuesFit({ ...grade, options: ['Α', 'Β'] }, ['Α', 'Γ'])).toBe(false);
    expect(storedValuesFit({ ...school, required: true }, ['x', undefined])).toBe(false);
    expect(storedValuesFit({ ...school, type: 'NUMBER' }, ['12'])).toBe(false);
    expect(storedValuesFit({ ...hours, type: 'TEXT' }, [null, undefined])).toBe(true);
  });

  it('requires options for choice types only', () => {
    expect(definitionProblem({ ...grade, options: [] })).toEqual({ options: 'required' });
    expect(definitionProblem({ ...school, options: ['a'] })).toEqual({ options: 'invalid' });
    expect(definitionProblem(grade)).toBeNull();
  });
});

describe('fields of the directory', () => {
  it('checks confirm_password against password', () => {
    try {
      parseBody(createSchema(TEACHERS), {
        username: 'maria',
        password: 'secret-password',
        confirm_password: 'other-password',
        first_name: 'Μαρία',
        last_name: 'Νικολάου',
      });
      expect.unreachable();
    } catch (e) {
      expect((e as DomainError).fields).toEqual({ confirm_password: 'mismatch' });
    }
  });

  it('filters reference lists by id', () => {
    expect(parseListQuery(CLASSES, { student_ids: ['3', '4'] }).filters).toEqual([{ field: 'student_ids', op: 'eq', values: [3, 4] }]);
    expect(() => parseListQuery(CLASSES, { student_ids: 'abc' })).toThrow(DomainError);
  });
});
