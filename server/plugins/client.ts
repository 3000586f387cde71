/**
 * Serves the built web client from ./dist: existing files as they are (hashed assets cached
 * for a year), any other non-API GET gets index.html so the client's router can take the
 * path. Everything else that matches no route is a JSON 404.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { DomainError } from '../../domain/index';
import { isApiPath, pathOf } from '../context';
import { sendError } from './errors';

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
  if (enabled) await app.register(fastifyStatic, { root, serve: false });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request.url);
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (!enabled || !isPage || isApiPath(request.method, path) || path === '/api' || path.startsWith('/api/')) {
      return sendError(reply, new DomainError('not-found', `No route ${request.method} ${path}.`));
    }
    const file = staticFile(root, path);
    if (file) {
      const immutable = file.startsWith(`assets${sep}`);
      return reply.sendFile(file, immutable ? { maxAge: 365 * 24 * 3600 * 1000, immutable: true } : { maxAge: 0 });
    }
    // A missing file with an extension is a real 404, not a client route.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) return sendError(reply, new DomainError('not-found'));
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
  });
});
