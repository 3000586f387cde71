/**
 * Which tenant a request is for. API calls must say who they are (x-client-type) and which
 * centre they address (x-tenant-id); this is checked before authentication. When the Host
 * names a tenant (acme.frontis.app), the header must agree with it.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isIP } from 'node:net';
import { DomainError } from '../../domain/index';
import type { Database } from '../db/types';
import { platform } from '../db/doors';
import { tenants } from '../db/schema/index';
import { isApiPath, pathOf, type TenantRef } from '../context';

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The tenant label of a Host header, or null for bare localhost, IPs and single-label hosts. */
export function hostTenant(host: string | undefined): string | null {
  if (!host) return null;
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) return null; // IPv6 literal
  name = name.replace(/:\d+$/, '').replace(/\.$/, '');
  if (isIP(name)) return null;
  const labels = name.split('.');
  if (labels.length < 2) return null;
  return labels[0] || null;
}

export async function findTenantBySlug(database: Database, slug: string): Promise<TenantRef | null> {
  if (!SLUG_RE.test(slug)) return null;
  const [row] = await platform(database)
    .select({
      id: tenants.id,
      slug: tenants.slug,
      name: tenants.name,
      status: tenants.status,
      timeZone: tenants.timeZone,
      language: tenants.language,
    })
    .from(tenants)
    .where(eq(tenants.slug, slug))
    .limit(1);
  return row ?? null;
}

/**
 * A few seconds' memory of tenant rows, for requests that carry a session only. It holds no
 * authority: a deactivated tenant's sessions are revoked in the same transaction (tenants
 * routes), and the session row is checked against the database on every request, so such a
 * request is refused at once in every process. What may lag by up to TENANT_TTL_MS in another
 * process is only the tenant's name, time zone and language. Public routes (sign-in, refresh,
 * sign-out), which decide on the tenant's status themselves, always read the row afresh.
 * Writes in this process call forgetTenants(). Kept per Database, so that
 * several apps in one process (the tests) never see each other's rows.
 */
const TENANT_TTL_MS = 5000;
const TENANT_CACHE_MAX = 1000;
type TenantCache = Map<string, { ref: TenantRef; until: number }>;
const tenantCaches = new WeakMap<Database, TenantCache>();

/** Drops the remembered tenant rows of this database (after a write to tenants). */
export function forgetTenants(database: Database) {
  tenantCaches.get(database)?.clear();
}

async function cachedTenantBySlug(database: Database, slug: string): Promise<TenantRef | null> {
  let cache = tenantCaches.get(database);
  if (!cache) tenantCaches.set(database, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(slug);
  if (hit && hit.until > now) return hit.ref;
  const ref = await findTenantBySlug(database, slug);
  if (ref) {
    if (cache.size >= TENANT_CACHE_MAX) cache.clear();
    cache.set(slug, { ref, until: now + TENANT_TTL_MS });
  } else cache.delete(slug);
  return ref;
}

/** The first label of a Host, as the web client sends it on a bare host ('localhost', '127'). */
const firstLabel = (host: string | undefined) => (host ?? '').trim().toLowerCase().replace(/:\d+$/, '').split('.')[0];

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A provider's callback (an SMS delivery report): it can't send our headers, so its path's
     * `:tenant` names the centre and it counts as an API call; the Host must still agree.
     */
    providerCallback?: boolean;
  }
}

export const tenancyPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
  app.decorateRequest('tenant', null);
  app.decorateRequest('clientType', null);

  app.addHook('onRequest', async (request) => {
    if (!isApiPath(request.method, pathOf(request.url))) return;
    const callback = request.routeOptions.config?.providerCallback === true;
    const clientType = callback ? 'api' : headerValue(request.headers['x-client-type']);
    const slug = (callback ? (request.params as { tenant?: string }).tenant : headerValue(request.headers['x-tenant-id']))?.toLowerCase();
    if ((clientType !== 'web' && clientType !== 'api') || !slug || slug.length > 63) {
      throw new DomainError('missing-headers');
    }
    const fromHost = hostTenant(request.headers.host);
    if (fromHost !== null && fromHost !== slug) {
      throw new DomainError('tenant-mismatch', 'The x-tenant-id header does not match the host name.');
    }
    request.clientType = clientType;
    // A bare localhost or IP address means DEFAULT_TENANT; the web client
    // then sends the host's own first label. API clients on a bare host name the tenant instead.
    const bare = fromHost === null && slug === firstLabel(request.headers.host);
    const wanted = bare ? app.frontis.config.defaultTenant : slug;
    const access = request.routeOptions.config?.access;
    const withSession = !request.is404 && access !== undefined && access !== 'public';
    request.tenant = withSession ? await cachedTenantBySlug(opts.database, wanted) : await findTenantBySlug(opts.database, wanted);
  });
});
