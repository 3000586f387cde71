// The fields a role reads, declared by `narrowFor`: what a narrowed row keeps, what its list
// query accepts, and that every declaration names fields it has (its title among them, since
// labels in other answers are made of it).
import { describe, expect, it } from 'vitest';
import { DomainError, narrowedDef, narrowRow, parseListQuery, readableFields, RESOURCES, STUDENTS } from '../../domain/index';

const fieldsOf = (error: unknown) => (error instanceof DomainError ? error.fields : undefined);
const refusal = (raw: Record<string, string>) => {
  try {
    parseListQuery(narrowedDef(STUDENTS, 'TEACHER'), raw);
  } catch (error) {
    return fieldsOf(error);
  }
  return undefined;
};

describe('narrowFor', () => {
  it('a TEACHER reads the first and last names of a student; other roles read every field', () => {
    expect([...(readableFields(STUDENTS, 'TEACHER') ?? [])]).toEqual(['first_name', 'last_name']);
    for (const role of ['ROOT', 'ADMIN', 'SECRETARY'] as const) expect(readableFields(STUDENTS, role)).toBeUndefined();
    const row = {
      id: 7,
      version: 3,
      created_at: '2026-01-01T00:00:00.000Z',
      first_name: 'Άννα',
      last_name: 'Δήμου',
      phone: '+30 210 1234567',
      guardian_ids: [4],
      guardians: [{ id: 4, name: 'Γιώργος Δήμου' }],
      custom_fields: { allergy: 'γύρη' },
      number_of_contracts: 2,
      class_ids: [1],
      classes: [{ id: 1, name: 'Α1' }],
    };
    expect(narrowRow(STUDENTS, 'TEACHER', row)).toEqual({ id: 7, first_name: 'Άννα', last_name: 'Δήμου' });
    expect(narrowRow(STUDENTS, 'SECRETARY', row)).toBe(row);
  });

  it('the narrowed list query refuses filters and sorts on hidden fields and instants, and sorts by name by default', () => {
    expect(refusal({ phone: '210' })).toEqual({ phone: 'unknown-field' });
    expect(refusal({ guardian_ids: '4' })).toEqual({ guardian_ids: 'unknown-field' });
    expect(refusal({ _sort: 'number_of_contracts' })).toEqual({ _sort: 'invalid-option' });
    expect(refusal({ _sort: 'created_at' })).toEqual({ _sort: 'invalid-option' });
    expect(refusal({ updated_at_gte: '2026-01-01T00:00:00Z' })).toEqual({ updated_at_gte: 'unknown-field' });
    const query = parseListQuery(narrowedDef(STUDENTS, 'TEACHER'), { last_name_like: 'Δή', id: '7', q: 'άννα' });
    expect(query.sort).toEqual(STUDENTS.defaultSort);
    expect(query.filters.map((f) => f.field)).toEqual(['last_name', 'id']);
    // Staff filter and sort on everything as before.
    expect(parseListQuery(STUDENTS, { phone: '210', _sort: 'created_at' }).filters).toHaveLength(1);
  });

  it('every declaration names only its own fields, its title fields among them', () => {
    for (const def of Object.values(RESOURCES)) {
      const names = new Set(def.fields.map((f) => f.name));
      for (const [role, fields] of Object.entries(def.narrowFor ?? {})) {
        for (const name of fields ?? []) expect(names.has(name), `${def.name}.narrowFor.${role}: ${name}`).toBe(true);
        for (const title of def.screen.titleFields ?? []) expect(fields, `${def.name}.narrowFor.${role} lacks its title ${title}`).toContain(title);
      }
    }
  });
});
