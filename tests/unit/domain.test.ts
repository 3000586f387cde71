import { describe, expect, it } from 'vitest';
import {
  canOpenRoute,
  isValidTaxId,
  can,
  createSchema,
  DomainError,
  normalizeSearch,
  parseBody,
  parseListQuery,
  SORT_FOLDING,
  sortKey,
  updateSchema,
  USERS,
  TENANTS,
} from '../../domain';

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, status: e.status, fields: e.fields };
    throw e;
  }
  throw new Error('expected a DomainError');
};

describe('route guards', () => {
  it.each([
    ['ROOT', '/tenants/', true],
    ['ADMIN', '/tenants/', false],
    ['ADMIN', '/custom-entities/', false],
    ['TEACHER', '/custom-entities/builder/', false],
    ['ROOT', '/custom-entities/builder/', true],
    ['TEACHER', '/custom-entities/entity/pets/', true],
    ['SECRETARY', '/students/', true],
    ['SECRETARY', '/students/settings', false],
    ['ADMIN', '/students/settings', true],
    ['TEACHER', '/students/', true],
    ['SECRETARY', '/settings/', false],
    ['ADMIN', '/settings/', true],
    ['TEACHER', '/lessons/settings', true],
    ['SECRETARY', '/classes/settings', false],
    ['TEACHER', '/classes/', true],
    ['TEACHER', '/', true],
    ['SECRETARY', '/account/', false],
  ] as const)('%s on %s -> %s', (role, path, allowed) => {
    expect(canOpenRoute(role, path)).toBe(allowed);
  });

  it('matches the permission matrix for users and tenants', () => {
    expect(can('ADMIN', 'users', 'create')).toBe(true);
    expect(can('SECRETARY', 'users', 'list')).toBe(false);
    expect(can('ADMIN', 'tenants', 'list')).toBe(false);
    expect(can('TEACHER', 'directory', 'read')).toBe(true);
    expect(can('TEACHER', 'directory', 'update')).toBe(false);
  });
});

describe('Greek search folding', () => {
  it('is accent- and case-insensitive', () => {
    expect(normalizeSearch('Παπαδόπουλος')).toBe(normalizeSearch('παπαδοπουλος'));
    expect(normalizeSearch('ΆΝΝΑ Ϊ')).toBe('αννα ι');
    expect(normalizeSearch('Café  Ünïcode')).toBe('cafe unicode');
  });

  it('gives sort keys that order Greek words as a reader expects', () => {
    expect(sortKey('Άλφα')).toBe(sortKey('άλφα'));
    expect(sortKey('ΣΟΦΟΣ')).toBe('σοφοσ');
    const words = ['Έκθεση', 'Ωδική', 'άλφα', 'Αγγλικά', 'Ζήτα', 'Άλφα'];
    const byKey = [...words].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
    expect(byKey).toEqual(['Αγγλικά', 'άλφα', 'Άλφα', 'Έκθεση', 'Ζήτα', 'Ωδική']);
  });

  it('folds each character for sorting as search folds it', () => {
    expect(SORT_FOLDING.from.length).toBe(SORT_FOLDING.to.length);
    for (const [i, ch] of [...SORT_FOLDING.from].entries()) {
      // Spaces and the like, which search trims away, stand for themselves.
      expect(SORT_FOLDING.to[i]).toBe(normalizeSearch(ch) || ch);
    }
  });
});

describe('validation derived from resource fields', () => {
  it('names each bad field with a code', () => {
    const err = fieldsOf(() => parseBody(createSchema(USERS), { username: 'x', password: 'short', role: 'ROOT', first_name: '', email: 'no', extra: 1 }));
    expect(err.status).toBe(400);
    expect(err.fields).toMatchObject({
      username: 'too-short',
      password: 'too-short',
      role: 'invalid-option',
      first_name: 'required',
      last_name: 'required',
      email: 'invalid-format',
      extra: 'unknown-field',
    });
  });

  it('refuses 10 KB strings and wrong types', () => {
    const err = fieldsOf(() => parseBody(createSchema(TENANTS), { slug: 'ok', name: 'x'.repeat(10_240), language: 5, time_zone: 'Mars/Base' }));
    expect(err.fields).toEqual({ name: 'too-long', language: 'invalid-option', time_zone: 'invalid-option' });
  });

  it('requires the version on update and refuses create-only fields', () => {
    const err = fieldsOf(() => parseBody(updateSchema(TENANTS), { slug: 'other', name: 'A' }));
    expect(err.fields).toEqual({ slug: 'unknown-field', version: 'required' });
    expect(parseBody(updateSchema(TENANTS), { name: ' Κέντρο ', version: 3 })).toEqual({ name: 'Κέντρο', version: 3 });
  });
});

describe('list queries', () => {
  it('parses paging, sorting and filters', () => {
    const q = parseListQuery(USERS, {
      _start: '25',
      _end: '50',
      _sort: 'last_name,created_at',
      _order: 'asc,desc',
      role: ['ADMIN', 'SECRETARY'],
      status_ne: 'INACTIVE',
      username_like: 'mar',
      q: ' Παπα ',
    });
    expect(q).toEqual({
      start: 25,
      end: 50,
      sort: [
        { field: 'last_name', order: 'asc' },
        { field: 'created_at', order: 'desc' },
      ],
      filters: [
        { field: 'role', op: 'eq', values: ['ADMIN', 'SECRETARY'] },
        { field: 'status', op: 'ne', values: ['INACTIVE'] },
        { field: 'username', op: 'like', values: ['mar'] },
      ],
      q: 'Παπα',
    });
  });

  it('refuses unknown names, SQL in names and oversize pages', () => {
    const err = fieldsOf(() => parseListQuery(USERS, { _end: '500', _sort: 'password', 'role;drop table users': 'x', status: 'MAYBE' }));
    expect(err.fields).toEqual({
      _end: 'too-large',
      _sort: 'invalid-option',
      'role;drop table users': 'unknown-field',
      status: 'invalid',
    });
    expect(fieldsOf(() => parseListQuery(USERS, { _sort: 'last_name', _order: 'asc;--' })).fields).toEqual({
      _order: 'invalid-option',
    });
  });
});

describe('Greek tax numbers (ΑΦΜ)', () => {
  it('accepts numbers whose ninth digit is their check digit and refuses the rest', () => {
    for (const good of ['090000045', '094019245', '123456783']) expect(isValidTaxId(good), good).toBe(true);
    for (const bad of ['090000046', '12345678', '1234567890', '12345678a', '000000000', '', ' 090000045']) expect(isValidTaxId(bad), bad).toBe(false);
  });
});
