// Shared assertions for the black-box API tests (owned by the api-test helper).
// Everything here looks only at what a client receives: status, headers, cookies, body.
import type { FastifyInstance } from 'fastify';
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';
import type { Response } from 'light-my-request';
import { ERROR_CODES, FIELD_CODES } from '../../../domain/errors';
import { pgCode } from '../../../server/plugins/errors';

export const ERROR_CODE_LIST: readonly string[] = ERROR_CODES;
const FIELD_CODE_LIST: readonly string[] = FIELD_CODES;

/** A readable description of a response for assertion messages. */
export function show(res: Response): string {
  const body = res.body.length > 600 ? `${res.body.slice(0, 600)}…` : res.body;
  return `${res.statusCode} ${body}`;
}

/** Parses the body as JSON, failing the test with the raw body when it is not JSON. */
export function json(res: Response): any {
  try {
    return JSON.parse(res.body);
  } catch {
    throw new Error(`response body is not JSON: ${show(res)}`);
  }
}

/**
 * Asserts an error answer: the status, {error:{code,message}} and, when given, that
 * error.fields contains (at least) these field codes.
 */
export function expectError(res: Response, status: number, code: string, fields?: Record<string, unknown>): any {
  expect(res.statusCode, show(res)).toBe(status);
  const body = json(res);
  expect(body, show(res)).toHaveProperty('error');
  expect(body.error.code, show(res)).toBe(code);
  expect(typeof body.error.message, show(res)).toBe('string');
  if (fields) {
    expect(body.error.fields, show(res)).toMatchObject(fields);
  }
  if (body.error.fields !== undefined) {
    for (const v of Object.values(body.error.fields)) {
      expect(FIELD_CODE_LIST, show(res)).toContain(v);
    }
  }
  return body;
}

/** Asserts a 4xx answer with a well-formed error body (any code from the catalogue). */
export function expectClientError(res: Response): any {
  expect(res.statusCode, show(res)).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, show(res)).toBeLessThan(500);
  const body = json(res);
  expect(ERROR_CODE_LIST, show(res)).toContain(body?.error?.code);
  expect(typeof body.error.message, show(res)).toBe('string');
  return body;
}

export function expectStatus(res: Response, status: number): void {
  expect(res.statusCode, show(res)).toBe(status);
}

interface SetCookie {
  name: string;
  value: string;
  raw: string;
  /** attribute names lower-cased; flag attributes map to true */
  attrs: Record<string, string | true>;
}

/** All Set-Cookie headers of a response, by cookie name (the last one wins). */
export function setCookies(res: Response): Record<string, SetCookie> {
  const header = res.headers['set-cookie'];
  const list = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  const out: Record<string, SetCookie> = {};
  for (const raw of list) {
    const [pair, ...rest] = raw.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const attrs: Record<string, string | true> = {};
    for (const part of rest) {
      const p = part.trim();
      if (!p) continue;
      const i = p.indexOf('=');
      if (i < 0) attrs[p.toLowerCase()] = true;
      else attrs[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim();
    }
    out[name] = { name, value, raw, attrs };
  }
  return out;
}

/** True when a Set-Cookie clears the cookie (empty value, Max-Age<=0 or Expires in the past). */
export function isClearing(c: SetCookie): boolean {
  if (c.attrs['max-age'] !== undefined && Number(c.attrs['max-age']) <= 0) return true;
  if (typeof c.attrs.expires === 'string' && Date.parse(c.attrs.expires) <= Date.now()) return true;
  return false;
}

export function expectNoSecret(res: Response, ...secrets: string[]): void {
  expect(res.body.includes('$argon2'), `argon2 hash leaked: ${show(res)}`).toBe(false);
  for (const s of secrets) {
    expect(res.body.includes(s), `secret ${s} leaked: ${show(res)}`).toBe(false);
  }
}

/**
 * Every route the app registers, from its own route table (`:name` parameters, `*` wildcards),
 * as method and path template: a route added later is in it too. HEAD, which Fastify adds
 * beside each GET, is left out.
 */
export function routeTable(app: FastifyInstance): Array<{ method: string; path: string }> {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[][] = [];
  const out = new Map<string, { method: string; path: string }>();
  for (const line of tree.split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const methods = /\(([A-Z, ]+)\)\s*$/.exec(line)?.[1]?.split(', ') ?? [];
    const segment = line
      .slice(at + 4)
      .replace(/ \([A-Z, ]+\)$/, '')
      .trim();
    // Sibling parameters of different names print as one node (`:id|:slug`): each is its own path.
    const alternatives = segment.split('|').map((s, i) => (i === 0 ? s : `/${s}`));
    const parents = depth === 0 ? [''] : (stack[depth - 1] ?? []);
    const paths = parents.flatMap((p) => alternatives.map((a) => p + a));
    stack[depth] = paths;
    stack.length = depth + 1;
    for (const method of methods.filter((m) => m !== 'HEAD')) for (const path of paths) out.set(`${method} ${path}`, { method, path });
  }
  return [...out.values()];
}

/** What a query came to: its rows, or the SQLSTATE it failed with. */
export type Outcome<Row> = { rows: Row[] } | { error: string };

/** Runs a query and answers its rows or its SQLSTATE; any other failure (not the database refusing it) is thrown. */
export async function outcome<Row>(run: () => Promise<Row[]>): Promise<Outcome<Row>> {
  try {
    return { rows: await run() };
  } catch (error) {
    const code = pgCode(error);
    if (!code) throw error;
    return { error: code };
  }
}

/**
 * Opens a raw connection to 127.0.0.1:`port` and writes `first`; `answer` resolves once the
 * connection closes, with everything the server sent, or the error's code when it sent nothing
 * (ECONNREFUSED: nothing listens).
 */
export function rawRequest(port: number, first: string): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(first);
  let got = '';
  socket.on('data', (chunk) => {
    got += chunk.toString();
  });
  const answer = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(got));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (got === '') got = error.code ?? error.message;
    });
  });
  return { socket, answer };
}
