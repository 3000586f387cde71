// Setting up a browser test's data through the real API, as ROOT, before the browser opens it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { parse, type Mail } from '../api/support/mailbox';
import { e2eServer } from './server';

export const JSON_HEADERS = { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' };

/** ROOT's bearer token on the demo centre. */
export async function rootToken(): Promise<string> {
  const login = await fetch(`${e2eServer().apiBase}/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...inject('root'), tenant: 'demo' }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** Any call to the API as the token's user; the answer as it came. */
export function call(token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  return fetch(`${e2eServer().apiBase}${path}`, {
    method,
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Creates a row (201 expected) and answers its id. */
export async function post(token: string, path: string, body: unknown): Promise<{ id: number }> {
  const res = await call(token, 'POST', path, body);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(201);
  return (await res.json()) as { id: number };
}

/** The messages the test SMTP server has received so far. */
export function mailbox(): Mail[] {
  const mailDir = e2eServer().mailDir;
  return readdirSync(mailDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(mailDir, f), 'utf8')) as { to: string[]; raw: string })
    .map((m) => parse(m.raw, m.to));
}
