/**
 * What a request carries once the cross-cutting plugins have run, and how a route declares
 * who may call it (checked by plugins/auth.ts before the handler runs).
 */
import type { Action, Area, Role } from '../domain/index';
import type { Config } from './config';
import type { Database } from './db/types';

export interface TenantRef {
  id: number;
  slug: string;
  name: string;
  status: string;
  timeZone: string;
  language: string;
}

/** The signed-in account acting in request.tenant: a tenant user or a ROOT. */
export interface Actor {
  kind: 'user' | 'root';
  id: number;
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
  tenantId: number;
  sessionId: number;
}

/**
 * 'public': no session needed (login, refresh, sign-out, health);
 * 'signed-in': any signed-in staff account (the handler narrows further); a GUARDIAN only
 *   where the route also says `guardians: true` (her own session: /me);
 * {area, action}: can(role, area, action) from domain/permissions.ts must be true.
 */
export type Access = 'public' | 'signed-in' | { area: Area; action: Action };

export type ClientType = 'web' | 'api';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved from x-tenant-id; null when no such tenant exists. Unset on exempt paths. */
    tenant: TenantRef | null;
    clientType: ClientType | null;
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** A 'signed-in' route a GUARDIAN may call too (every other one answers her 403). */
    guardians?: boolean;
  }
  interface FastifyInstance {
    frontis: { database: Database; config: Config; jwtKey: Uint8Array };
  }
}

/** The actor of a request whose route required a session. */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new Error('route without session guard reached an actor-only handler');
  return request.actor;
}

export function tenantOf(request: { tenant: TenantRef | null }): TenantRef {
  if (!request.tenant) throw new Error('tenant expected on this route');
  return request.tenant;
}

/** Paths that belong to the JSON API (need the client headers); everything else is docs, health or the client. */
export function isApiPath(method: string, path: string): boolean {
  if (path === '/api' || path.startsWith('/api/')) return !(path === '/api/docs' || path.startsWith('/api/docs/'));
  if (path === '/me') return true;
  // GET /login is the client's sign-in page; the API's /login is POST only.
  if (path === '/login' || path === '/refresh-token' || path === '/sign-out') return method !== 'GET' && method !== 'HEAD';
  return false;
}

export const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};
