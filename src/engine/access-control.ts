import type { AccessControlProvider } from '@refinedev/core';
import { can, canOpenRoute, isOwnOnly, type Action, type Area } from '../../domain/permissions';
import type { Role } from '../../domain/enums';
import { SCREENS } from '../../domain/resources/index';
import { areaOf, declarationOf, runtimeDeclarations, runtimeRouteGuards } from './registry';
import { session } from '../providers/session';

/** Where `role` starts, and lands when a route is not hers: a guardian's portal, or the staff's calendar. */
export const homeOf = (role: Role | undefined): string => (role === 'GUARDIAN' ? '/portal/' : '/');

/** A pseudo resource: `<CanAccess resource="route" params={{pathname}}>` guards a screen. */
export const ROUTE_RESOURCE = 'route';

const ACTIONS: Record<string, Action> = {
  list: 'list',
  show: 'read',
  read: 'read',
  create: 'create',
  clone: 'create',
  edit: 'update',
  update: 'update',
  delete: 'delete',
};

interface Params {
  pathname?: string;
  /** The resource item Refine passes (sidebar entries, buttons): its route and area travel in meta. */
  resource?: { meta?: { route?: unknown; area?: unknown; group?: unknown } };
  /** The row a button acts on, for roles limited to their own rows. */
  meta?: { record?: Record<string, unknown> };
}

const opens = (role: Parameters<typeof canOpenRoute>[0], route: string) => canOpenRoute(role, route.split('?')[0]!, runtimeRouteGuards());

const groupRoutes = (group: string) => [...SCREENS, ...runtimeDeclarations()].filter((s) => s.screen.group === group).map((s) => s.screen.route);

/**
 * The one permission path of the client: route guards, the sidebar, every button and every
 * `useCan` ask here, and the answer comes from the domain's matrix, synchronously, so no call
 * goes out per row or button. A list asks it directly for each row's buttons while drawing
 * (a Refine query per row and button made the first drawing of 25 rows wait on 75 of them,
 * then draw again when they came).
 */
export function allows(resource: string | undefined, action: string, params?: unknown): boolean {
  const user = session.get();
  if (!user) return false;
  const p = (params ?? {}) as Params;
  if (resource === ROUTE_RESOURCE) return opens(user.role, String(p.pathname ?? '/'));
  // A sidebar group shows when one of its entries opens.
  if (p.resource?.meta?.group === true && resource) {
    return groupRoutes(resource).some((route) => opens(user.role, route));
  }
  // A sidebar entry (action list with the resource item) shows only when its route opens:
  // everyone reads class categories, but only ROOT and ADMIN open /classes/settings.
  const route = p.resource?.meta?.route;
  if (action === 'list' && typeof route === 'string' && !opens(user.role, route)) return false;
  const area = (typeof p.resource?.meta?.area === 'string' ? (p.resource.meta.area as Area) : undefined) ?? (resource ? areaOf(resource) : undefined);
  const mapped = ACTIONS[action];
  if (!area || !mapped) return true;
  if (!can(user.role, area, mapped)) return false;
  // TEACHER changes only the notes they wrote: the row's owner field says whose it is.
  const record = p.meta?.record;
  const owner = resource ? declarationOf(resource)?.screen.ownerField : undefined;
  if (record && owner && mapped !== 'read' && mapped !== 'list' && isOwnOnly(user.role, area)) {
    return record[owner] != null && String(record[owner]) === String(user.id);
  }
  return true;
}

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => ({ can: allows(resource, action, params) }),
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: true },
    // The answer is computed from the signed-in user, and each sign-in mounts a new Refine
    // with an empty cache, so an answer never goes stale within one: asking again on every
    // render re-rendered the page dozens of times before its first request.
    queryOptions: { staleTime: Number.POSITIVE_INFINITY },
  },
};
