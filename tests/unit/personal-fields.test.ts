// What is personal is said on the field (FieldDef.personal): every such field of every
// declaration (the resources and the rows kept beside them) can be erased to a value its
// column takes, and the people erasure serves name themselves with it.
import { describe, expect, it } from 'vitest';
import { ERASED_NAME, erasedValue, KEPT_RECORDS, type FieldDef, GUARDIANS, RESOURCES, STUDENTS } from '../../domain/index';
import { storedAs } from '../../server/db/schema/declared';

const declarations: { name: string; fields: readonly FieldDef[] }[] = [
  ...Object.values(RESOURCES),
  ...KEPT_RECORDS.map((k) => ({ name: k.entity, fields: k.fields })),
];

describe('personal fields', () => {
  it('each erases to a value its column takes: nothing where it may be empty, its default, or a placeholder text', () => {
    const personal = declarations.flatMap((d) => d.fields.filter((f) => f.personal).map((f) => [d, f] as const));
    expect(personal.length).toBeGreaterThan(10);
    for (const [def, field] of personal) {
      const value = erasedValue(def.fields, field, 7);
      const where = `${def.name}.${field.name}`;
      if (value === null) expect(field.required || field.default !== undefined, where).toBeFalsy();
      else if (field.default !== undefined) expect(value, where).toEqual(field.default);
      else expect([typeof value, storedAs(field)], where).toEqual(['string', 'text']);
    }
  });

  it('names an erased student or guardian "Διαγραμμένος/η #id" by her name fields', () => {
    for (const def of [STUDENTS, GUARDIANS]) {
      const names = def.fields.filter((f) => f.personal === 'name');
      expect(names.map((f) => f.name)).toEqual(['first_name', 'last_name']);
      expect(names.map((f) => erasedValue(def.fields, f, 42)).join(' ')).toBe(`${ERASED_NAME} #42`);
      // and everything else that names or reaches her is personal too
      for (const name of ['email', 'phone']) expect(def.fields.find((f) => f.name === name)?.personal, `${def.name}.${name}`).toBe(true);
    }
  });
});
