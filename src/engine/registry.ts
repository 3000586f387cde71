import type { ResourceDef } from '../../domain/fields';
import { RESOURCE_AREA, routeGuardOf, type Area, type RouteGuard } from '../../domain/permissions';
import { RESOURCES, viewRoutesOf } from '../../domain/resources/index';

// The declarations the client knows: the built-in ones and those mounted at run time. The
// access check is synchronous, so it reads them from here rather than from React state.
let runtime: readonly ResourceDef[] = [];
let runtimeGuards: readonly RouteGuard[] = [];
let runtimeViews: Record<string, { path: string; param: string }> = {};

export function setRuntimeDeclarations(defs: readonly ResourceDef[]) {
  runtime = defs;
  runtimeGuards = defs.map(routeGuardOf);
  runtimeViews = viewRoutesOf(defs);
}

export const runtimeDeclarations = () => runtime;
export const runtimeRouteGuards = () => runtimeGuards;

/** A declaration by API name: a built-in one first, then one mounted at run time. */
export const declarationOf = (name: string): ResourceDef | undefined => RESOURCES[name] ?? runtime.find((d) => d.name === name);

/** The permission area of an API resource, declared or not (yet). */
export const areaOf = (name: string): Area | undefined => declarationOf(name)?.area ?? RESOURCE_AREA[name];

/** Where a row of `name` is viewed, for runtime declarations too. */
export const runtimeViewRoute = (name: string) => runtimeViews[name];
