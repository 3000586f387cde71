// Every refusal carries a code: a walk through the server's error paths — the router's own
// refusals (a URL too long, bad percent-encoding, no such route), the body parsers, the
// headers, the session, the role check, the HTTP parser over a real socket — where each 4xx
// must be {error: {code, message}} with a code the client can translate.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Probe = {
  name: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'OPTIONS';
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  status: number;
};

/** Sends raw bytes and answers the status line and the JSON body of the reply. */
function raw(port: number, bytes: string): Promise<{ status: number; body: { error?: { code?: string } } }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (c) => {
      got += c.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
      const body = got.slice(got.indexOf('\r\n\r\n') + 4);
      resolve({ status, body: body ? JSON.parse(body) : {} });
    });
    socket.end(bytes);
  });
}

describe.each(DATABASE_KINDS)('every 4xx has an error code on %s', (kind) => {
  let t: TestApp;
  let root: string;
  let teacherless: string;
  let port: number;

  beforeAll(async () => {
    t = await startApp(kind);
    root = (await t.signIn(t.root.username, t.root.password)).token;
    teacherless = (await t.createUser(root, { role: 'SECRETARY' })).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  const probes = (): Probe[] => [
    { name: 'a path segment longer than the router allows', url: `/api/users/${'1'.repeat(300)}`, status: 414 },
    { name: 'a path that is not valid percent-encoding', url: '/api/users/%E0%A4%A', status: 400 },
    { name: 'no such route', url: '/api/nothing-here', status: 404 },
    { name: 'no such method', method: 'PUT', url: '/api/users', status: 405 },
    { name: 'a list query that is not valid', url: '/api/users?_start=-1', status: 400 },
    { name: 'an unknown list parameter', url: '/api/users?constructor=1', status: 400 },
    { name: 'history of an Object.prototype key', url: '/api/history?entity=__proto__&entity_id=1', status: 400 },
    { name: 'broken JSON', method: 'POST', url: '/api/users', headers: { 'content-type': 'application/json' }, payload: '{', status: 400 },
    { name: 'a body that is not JSON', method: 'POST', url: '/api/users', headers: { 'content-type': 'text/plain' }, payload: 'x', status: 400 },
    { name: 'a form body', method: 'POST', url: '/api/users', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1', status: 400 },
    {
      name: 'a body over the limit',
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(2 << 20) }),
      status: 413,
    },
    { name: 'an upload without a boundary', method: 'POST', url: '/api/files', headers: { 'content-type': 'multipart/form-data' }, payload: 'x', status: 400 },
    { name: 'no client headers', url: '/api/users', headers: { 'x-client-type': '', 'x-tenant-id': '' }, status: 400 },
    { name: 'no token', url: '/api/users', headers: { authorization: '' }, status: 401 },
    { name: 'a forged token', url: '/api/users', headers: { authorization: 'Bearer a.b.c' }, status: 401 },
    { name: 'a role without the right', url: '/api/tenants', headers: { authorization: `Bearer ${teacherless}` }, status: 403 },
    { name: 'a record that does not exist', url: '/api/users/999999', status: 404 },
  ];

  it('answers each refusal through app.inject with {error: {code, message}}', async () => {
    for (const probe of probes()) {
      const headers: Record<string, string> = {
        host: 'demo.localhost',
        'x-tenant-id': 'demo',
        'x-client-type': 'api',
        authorization: `Bearer ${root}`,
        ...(probe.headers ?? {}),
      };
      for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
      const res = await t.app.inject({ method: probe.method ?? 'GET', url: probe.url, headers, payload: probe.payload });
      expect(res.statusCode, `${probe.name}: ${show(res)}`).toBe(probe.status);
      const body = res.json() as { error?: { code?: string; message?: string } };
      expect(ERROR_CODE_LIST, `${probe.name}: ${show(res)}`).toContain(body.error?.code);
      expect(typeof body.error?.message, probe.name).toBe('string');
    }
  });

  it('answers what the HTTP parser refuses over a socket with a code too', async () => {
    const badLine = await raw(port, 'NOT A REQUEST\r\n\r\n');
    expect(badLine.status).toBe(400);
    expect(ERROR_CODE_LIST).toContain(badLine.body.error?.code);
    const hugeHeader = await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'y'.repeat(20_000)}\r\n\r\n`);
    expect(hugeHeader.status).toBe(431);
    expect(hugeHeader.body.error?.code).toBe('too-large');
  });
});
