/**
 * Which methods a path answers to, for the 405 of a known path asked with another method
 * (PUT /api/students): every route is noted as it is added, its path turned into a pattern
 * (`:id` one segment, `*` the rest). Registered before any route; the not-found handler
 * (plugins/client.ts) asks `allowedMethods` before it answers 404.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

interface Known {
  pattern: RegExp;
  methods: Set<string>;
}

const ROUTES = new WeakMap<FastifyInstance, Map<string, Known>>();

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/api/students/:id` -> /^\/api\/students\/[^/]+$/; a parameter's own regexp is read as one segment. */
export function patternOf(url: string): RegExp {
  const parts = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (!segment.includes(':') && !segment.includes('*')) return escape(segment);
    // `:id`, `:id(^\\d+)`, `:from-:to`, `file.:ext`: each parameter is part of one segment
    return segment
      .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
      .map((piece) => (piece.startsWith(':') ? '[^/]+' : piece === '*' ? '.*' : escape(piece)))
      .join('');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

export const methodsPlugin = fp(async (app: FastifyInstance) => {
  const known = new Map<string, Known>();
  ROUTES.set(app, known);
  app.addHook('onRoute', (route) => {
    const entry = known.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(String(method).toUpperCase());
    known.set(route.url, entry);
  });
});

/** The methods some route answers `path` with, sorted (none: the path is unknown). */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  const methods = new Set<string>();
  for (const { pattern, methods: own } of ROUTES.get(app)?.values() ?? []) {
    if (pattern.test(path)) for (const method of own) methods.add(method);
  }
  return [...methods].sort();
}
