// Setting up a browser test's data through the real API, as ROOT, before the browser opens it.
import { expect, inject } from 'vitest';

export const JSON_HEADERS = { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' };

/** ROOT's bearer token on the demo centre. */
export async function rootToken(): Promise<string> {
  const login = await fetch(`${inject('apiBase')}/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...inject('root'), tenant: 'demo' }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** Any call to the API as the token's user; the answer as it came. */
export function call(token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  return fetch(`${inject('apiBase')}${path}`, {
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
