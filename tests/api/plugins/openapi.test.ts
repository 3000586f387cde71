// The published API description (/api/docs/json) checked by a real validator, Redocly's
// openapi-core with its `recommended` rules, and held to what the server really does: the
// documented list filters are the names it accepts, the documented successes are the status
// codes it answers, the documented 4xx bodies are the error body it sends.
// The document does not depend on the database engine: one engine is enough.
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_REGISTRY, LESSON_STATUSES, RESOURCES, SYSTEM_FIELDS } from '../../../domain/index';
import { show } from '../support/api-helpers';
import { startApp, type TestApp } from '../support/harness';

/**
 * The only warnings the document may carry: the rule, where (a JSON pointer prefix), and why.
 * Each entry must still match a warning, so a fixed one leaves the list.
 */
const ALLOWED_WARNINGS: ReadonlyArray<{ ruleId: string; pointer: string; reason: string }> = [
  {
    ruleId: 'info-license',
    pointer: '#/info',
    reason: 'Frontis is private software (package.json "private": true): there is no licence to name.',
  },
];

interface Parameter {
  $ref?: string;
  in?: string;
  name?: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  responses: Record<string, { $ref?: string; description?: string }>;
  security?: unknown[];
}
interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    parameters: Record<string, Parameter>;
    responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }>;
    schemas: Record<string, { properties?: Record<string, { properties?: Record<string, { enum?: string[] }> }> }>;
  };
}

describe('the OpenAPI description', () => {
  let t: TestApp;
  let text: string;
  let doc: Document;
  let token: string;

  const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  const resolve = (p: Parameter): Parameter => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p);
  const queryNames = (op: Operation) => (op.parameters ?? []).map(resolve).filter((p) => p.in === 'query');
  const get = (url: string) => t.request({ url, token });

  beforeAll(async () => {
    t = await startApp('pglite');
    token = (await t.signIn(t.root.username, t.root.password)).token;
    // No headers: the description is public, like /healthz.
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode, show(res)).toBe(200);
    text = res.body;
    doc = JSON.parse(text) as Document;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('passes Redocly: no errors, and no warning outside the allow-list', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/api/docs/json', config });
    const where = (p: NormalizedProblem) => p.location[0]?.pointer ?? '';
    const describeAll = (list: NormalizedProblem[]) => list.map((p) => `${p.severity} ${p.ruleId} ${where(p)}: ${p.message}`);
    expect(describeAll(problems.filter((p) => p.severity === 'error'))).toEqual([]);
    const allowed = (p: NormalizedProblem) => ALLOWED_WARNINGS.some((a) => a.ruleId === p.ruleId && where(p).startsWith(a.pointer));
    expect(describeAll(problems.filter((p) => !allowed(p)))).toEqual([]);
    for (const entry of ALLOWED_WARNINGS) {
      expect(
        problems.some((p) => p.ruleId === entry.ruleId && where(p).startsWith(entry.pointer)),
        `${entry.ruleId} at ${entry.pointer} no longer warns: drop it from the allow-list`,
      ).toBe(true);
    }
  });

  it('names every operation once, and sends readers to this server', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id!))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/rooms/{id}']?.get?.operationId).toBe('getApiRoomsId');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('declares the two client headers on every API call, and on nothing exempt', () => {
    expect(doc.components.parameters.ClientType).toMatchObject({ in: 'header', name: 'x-client-type', required: true });
    expect(doc.components.parameters.TenantId).toMatchObject({ in: 'header', name: 'x-tenant-id', required: true });
    for (const { path, method, op } of operations()) {
      const refs = (op.parameters ?? []).map((p) => p.$ref);
      const api = path.startsWith('/api/') || path === '/me' || (['/login', '/refresh-token', '/sign-out'].includes(path) && method !== 'get');
      const expected = api ? ['#/components/parameters/ClientType', '#/components/parameters/TenantId'] : [];
      expect(
        refs.filter((r) => r?.includes('ClientType') || r?.includes('TenantId')),
        `${method} ${path}`,
      ).toEqual(expected);
    }
    expect(Object.keys(doc.paths).filter((p) => p === '/healthz' || p.startsWith('/api/docs'))).toEqual([]);
  });

  it('documents the 4xx answers with the one error body the server sends', async () => {
    const error = doc.components.schemas.Error!;
    expect(error.properties?.error?.properties?.code?.enum).toEqual([...ERROR_CODES]);
    for (const response of Object.values(doc.components.responses)) {
      expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    }
    for (const { path, method, op } of operations()) {
      expect(
        Object.keys(op.responses).some((s) => /^4\d\d$/.test(s)),
        `${method} ${path}`,
      ).toBe(true);
    }
    // What the 404 and 400 of a resource say is what they send.
    expect(doc.paths['/api/rooms/{id}']?.get?.responses['404']?.$ref).toBe('#/components/responses/NotFound');
    const missing = await get('/api/rooms/999999');
    expect(missing.statusCode, show(missing)).toBe(404);
    expect(Object.keys(missing.json().error).sort()).toEqual(['code', 'message']);
    expect(doc.paths['/api/rooms']?.get?.responses['400']?.$ref).toBe('#/components/responses/BadRequest');
    const bad = await get('/api/rooms?nosuch=1');
    expect(bad.statusCode, show(bad)).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'validation', fields: { nosuch: 'unknown-field' } });
  });

  it('lists, for every declared resource, the query names its list route accepts, and the server accepts each', async () => {
    for (const res of Object.values(RESOURCES)) {
      const op = doc.paths[`/api/${res.name}`]?.get;
      expect(op, res.name).toBeDefined();
      const names = queryNames(op!).map((p) => p.name!);
      expect(names).toEqual(expect.arrayContaining(['_start', '_end', '_sort', '_order', 'q']));
      for (const field of [...SYSTEM_FIELDS, ...res.fields].filter((f) => f.filterable && !f.writeOnly)) {
        const ops = FIELD_REGISTRY[field.type].ops;
        const forms = [
          ...(ops.includes('eq') || ops.includes('like') ? [field.name] : []),
          ...(['ne', 'gte', 'lte', 'like'] as const).filter((op) => ops.includes(op)).map((op) => `${field.name}_${op}`),
        ];
        expect(names, `${res.name}.${field.name}`).toEqual(expect.arrayContaining(forms));
      }
      for (const name of names.filter((n) => !n.startsWith('_') && n !== 'q')) {
        const answer = await get(`/api/${res.name}?${encodeURIComponent(name)}=1`);
        // A value of the wrong type may be refused; the name itself never is.
        if (answer.statusCode !== 200) {
          expect(answer.statusCode, show(answer)).toBe(400);
          expect(answer.json().error.fields?.[name], `${res.name}?${name}`).not.toBe('unknown-field');
        }
      }
    }
  });

  it("documents the calendar's and the reports' queries as the server reads them", async () => {
    const required = (path: string) =>
      queryNames(doc.paths[path]!.get!)
        .filter((p) => p.required)
        .map((p) => p.name);
    expect(required('/api/lessons/calendar')).toEqual(['from', 'to']);
    expect(queryNames(doc.paths['/api/lessons/calendar']!.get!).map((p) => p.name)).toEqual(expect.arrayContaining(['status', 'teacher_id']));
    expect(required('/api/account/month')).toEqual(['month']);
    expect(required('/api/account/year')).toEqual(['year']);
    expect(required('/api/analytics/contracts')).toEqual(['from', 'to']);
    // The handlers keep their own checks and codes: a missing required name is theirs to refuse.
    for (const [url, fields] of [
      ['/api/lessons/calendar?to=2026-11-30&nosuch=1', { from: 'required', nosuch: 'unknown-field' }],
      ['/api/account/month?x=1', { month: 'required', x: 'unknown-field' }],
      ['/api/analytics/contracts?from=2026-01', { to: 'required' }],
    ] as const) {
      const answer = await get(url);
      expect(answer.statusCode, show(answer)).toBe(400);
      expect(answer.json().error).toMatchObject({ code: 'validation', fields });
    }
    const week = await get(`/api/lessons/calendar?from=2026-11-23&to=2026-11-29&status=${LESSON_STATUSES[0]}&status=${LESSON_STATUSES[1]}`);
    expect(week.statusCode, show(week)).toBe(200);
  });

  it('documents the success codes the server answers: 201 for a new calendar link, 204 for a deletion', async () => {
    expect(Object.keys(doc.paths['/api/mydata/calendar-feed']!.post!.responses).filter((s) => s.startsWith('2'))).toEqual(['201']);
    expect(Object.keys(doc.paths['/api/rooms/{id}']!.delete!.responses).filter((s) => s.startsWith('2'))).toEqual(['204']);
    const teacher = await t.request({
      method: 'POST',
      url: '/api/teachers',
      token,
      body: { first_name: 'Άννα', last_name: 'Παππά', username: 'openapi-teacher', password: 'teacher-password-1', confirm_password: 'teacher-password-1' },
    });
    expect(teacher.statusCode, show(teacher)).toBe(201);
    const link = await t.request({ method: 'POST', url: `/api/teachers/${teacher.json().id}/calendar-feed`, token });
    expect(link.statusCode, show(link)).toBe(201);
    expect(link.json().data).toMatchObject({ active: true, url: expect.stringMatching(/\/ical\/.+\.ics$/) });
    const room = await t.request({ method: 'POST', url: '/api/rooms', token, body: { name: 'Αίθουσα OpenAPI' } });
    expect(room.statusCode, show(room)).toBe(201);
    const gone = await t.request({ method: 'DELETE', url: `/api/rooms/${room.json().id}`, token });
    expect(gone.statusCode, show(gone)).toBe(204);
  });

  it('documents 204 for the answers without a body and 201 for creates only, never a 200 beside them', async () => {
    const successes = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses).filter((s) => s.startsWith('2'));
    expect(successes('/sign-out', 'post')).toEqual(['204']);
    expect(successes('/api/mydata/password', 'post')).toEqual(['204']);
    expect(successes('/api/receipts/{id}/cancel', 'post')).toEqual(['201']);
    // Every create of a declared resource answers 201; only a POST that updates a row named by its id also answers 200.
    for (const res of Object.values(RESOURCES)) {
      const post = doc.paths[`/api/${res.name}`]?.post;
      if (!post) continue;
      expect(
        Object.keys(post.responses).filter((s) => s.startsWith('2')),
        res.name,
      ).toEqual(res.name === 'users' ? ['200', '201'] : ['201']);
    }
    for (const { path, method, op } of operations()) {
      const codes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      if (codes.includes('204') || (codes.includes('201') && path !== '/api/users')) expect(codes, `${method} ${path}`).toHaveLength(1);
    }
    // And the server answers so: a sign-out is a 204 with no body.
    const session = await t.signIn(t.root.username, t.root.password);
    const out = await t.request({ method: 'POST', url: '/sign-out', clientType: 'api', token: session.token, body: { data: '' } });
    expect(out.statusCode, show(out)).toBe(204);
    expect(out.body).toBe('');
  });

  it('shares one schema per resource row between its list, read and write answers', () => {
    const rooms = doc.components.schemas.RoomsRow;
    expect(rooms?.properties).toHaveProperty('name');
    const text = JSON.stringify(doc.paths['/api/rooms']) + JSON.stringify(doc.paths['/api/rooms/{id}']);
    expect(text.match(/#\/components\/schemas\/RoomsRow/g)?.length).toBeGreaterThanOrEqual(4);
    for (const res of Object.values(RESOURCES))
      expect(Object.keys(doc.components.schemas), res.name).toContain(`${res.name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())}Row`);
  });
});
