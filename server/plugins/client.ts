/**
 * Serves the built web client from ./dist: existing files as they are, any other non-API GET
 * gets index.html so the client's router can take the path. Everything else that matches no
 * route is a JSON 404 (405 with `Allow` when the path is known but not the method). The build writes a brotli and a gzip copy beside each text file; the
 * browser's Accept-Encoding picks one (`Vary: Accept-Encoding`). Hashed files under /assets/
 * never change, so browsers keep them a year without asking; index.html (which names them)
 * is checked again on every load.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { DomainError } from '../../domain/index';
import { isApiPath, pathOf } from '../context';
import { sendError } from './errors';
import { allowedMethods } from './methods';

function staticFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = normalize(join(root, decoded));
  if (full !== root && !full.startsWith(root + sep)) return null;
  try {
    return statSync(full).isFile() ? full.slice(root.length + 1) : null;
  } catch {
    return null;
  }
}

export const clientPlugin = fp(async (app: FastifyInstance, opts: { serveClient: boolean; distDir?: string }) => {
  const root = resolve(opts.distDir ?? 'dist');
  const enabled = opts.serveClient && existsSync(join(root, 'index.html'));
  if (enabled) await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request.url);
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (!enabled || !isPage || isApiPath(request.method, path) || path === '/api' || path.startsWith('/api/')) {
      // a known path asked with a method it does not answer: 405, saying which it does
      const allowed = allowedMethods(app, path);
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        reply.header('allow', allowed.join(', '));
        return sendError(reply, new DomainError('method-not-allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`));
      }
      return sendError(reply, new DomainError('not-found', `No route ${request.method} ${path}.`));
    }
    const file = staticFile(root, path);
    if (file) {
      if (file.startsWith(`assets${sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        return reply.sendFile(file, { cacheControl: false });
      }
      if (file === 'index.html') reply.header('cache-control', 'no-cache');
      return reply.sendFile(file, file === 'index.html' ? { cacheControl: false } : { maxAge: 0 });
    }
    // A missing file with an extension is a real 404, not a client route.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) return sendError(reply, new DomainError('not-found'));
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
  });
});
