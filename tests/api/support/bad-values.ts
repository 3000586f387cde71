// Generators of wrong values for the bad-input tests: each is wrong for the kind of field it
// is named after, and never a blank string (blank means "none" for optional fields).
import fc from 'fast-check';

export const nonBlank = fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== '');

export const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

export const notNumber = fc.oneof(
  nonBlank,
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

export const notId = fc.oneof(
  notNumber,
  fc.integer({ max: 0 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.constantFrom(2 ** 31, 2 ** 53, -1),
);
