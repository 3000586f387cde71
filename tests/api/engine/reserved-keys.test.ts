// Names that every JavaScript object already has (`constructor`, `__proto__`, `toString`…)
// reach the server as query parameter names and values of every list and of the history; a
// lookup in a plain object by such a name finds something that is not data. Generated with
// fast-check from a fixed seed: no answer is a 500, and every refusal is a 4xx with a code.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const RESERVED = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'isPrototypeOf', '__defineGetter__', 'then'];
const SUFFIXES = ['', '_ne', '_gte', '_lte', '_like'];
const LIST_PARAMS = ['q', '_start', '_end', '_sort', '_order', 'entity', 'entity_id', 'id'];

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

describe.each(DATABASE_KINDS)('reserved object keys in queries on %s', (kind) => {
  let t: TestApp;
  let root: string;
  /** Every GET of the API without a path parameter (the lists, the history, the reports), with its documented query names. */
  let gets: { path: string; names: string[] }[];

  beforeAll(async () => {
    t = await startApp(kind);
    root = (await t.signIn(t.root.username, t.root.password)).token;
    const doc = t.app.swagger() as OpenApi;
    gets = Object.entries(doc.paths)
      .filter(([path, ops]) => path.startsWith('/api/') && !path.includes('{') && ops.get && !path.endsWith('/stream') && !path.startsWith('/api/docs'))
      .map(([path, ops]) => ({ path, names: (ops.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name) }));
  });
  afterAll(async () => t?.close());

  it('finds the lists and the history in the API description', () => {
    const paths = gets.map((g) => g.path);
    expect(paths).toContain('/api/history');
    expect(paths).toContain('/api/users');
    expect(paths).toContain('/api/students');
    expect(paths.length).toBeGreaterThan(20);
  });

  it('no parameter name or value that is an Object.prototype key reaches a 500', async () => {
    const reserved = fc.constantFrom(...RESERVED);
    const name = (documented: string[]) =>
      fc.oneof(
        fc.tuple(reserved, fc.constantFrom(...SUFFIXES)).map(([r, s]) => r + s),
        fc.constantFrom(...LIST_PARAMS, ...(documented.length ? documented : LIST_PARAMS)),
      );
    const value = fc.oneof(
      reserved,
      fc.tuple(reserved, fc.constantFrom(' asc', ' desc', ',id', '.id', '')).map(([r, s]) => r + s),
      fc.constantFrom('1', '0', 'asc'),
    );
    const request = fc.integer({ min: 0, max: 10_000 }).chain((i) => {
      const get = gets[i % gets.length]!;
      return fc.tuple(fc.constant(get.path), fc.array(fc.tuple(name(get.names), value), { minLength: 1, maxLength: 4 }));
    });
    await fc.assert(
      fc.asyncProperty(request, async ([path, params]) => {
        const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const res = await t.request({ url: `${path}?${query}`, token: root });
        expect(res.statusCode, show(res)).toBeLessThan(500);
        if (res.statusCode >= 400) expect(ERROR_CODE_LIST, show(res)).toContain(res.json().error?.code);
      }),
      { numRuns: 300 },
    );
  });

  it.each(RESERVED)('GET /api/history?entity=%s answers 400 validation', async (entity) => {
    const res = await t.request({ url: `/api/history?entity=${encodeURIComponent(entity)}&entity_id=1`, token: root });
    expect(res.statusCode, show(res)).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation', fields: { entity: 'invalid-option' } });
  });
});
