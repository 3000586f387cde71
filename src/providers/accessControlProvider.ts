import type { AccessControlProvider } from '@refinedev/core';
import { can, canOpenRoute, RESOURCE_AREA, type Action } from '../../domain/permissions';
import { session } from './session';

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

// Synchronous: the matrix lives in domain/permissions, so no call goes out per row or button.
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    const user = session.get();
    if (!user) return { can: false };
    if (resource === ROUTE_RESOURCE) {
      const pathname = String((params as { pathname?: string } | undefined)?.pathname ?? '/');
      return { can: canOpenRoute(user.role, pathname) };
    }
    // A sidebar entry (action list with the resource item) shows only when its route opens:
    // everyone reads class categories, but only ROOT and ADMIN open /classes/settings.
    const route = (params as { resource?: { meta?: { route?: unknown } } } | undefined)?.resource?.meta?.route;
    if (action === 'list' && typeof route === 'string' && !canOpenRoute(user.role, route.split('?')[0]!)) return { can: false };
    const area = resource ? RESOURCE_AREA[resource] : undefined;
    const mapped = ACTIONS[action];
    if (!area || !mapped) return { can: true };
    return { can: can(user.role, area, mapped) };
  },
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: true },
    // The answer depends on who is signed in: never reuse one across sessions.
    queryOptions: { staleTime: 0, gcTime: 0 },
  },
};
