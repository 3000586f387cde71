import type { ComponentType, LazyExoticComponent } from 'react';
import type { ResourceDef } from '../../domain/fields';
import { routePath, type PageDef } from '../../domain/resources/index';
import { lazyPage } from '../lazy';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * The pages a declaration names (`screen.page`) because the generic screen is not enough for
 * them. Every other declared resource is shown by the generic screen without a file of its
 * own. Each page is its own chunk.
 */
export const PAGE_LOADERS: Record<string, Loader> = {
  calendar: () => import('../pages/calendar'),
  mydata: () => import('../pages/mydata'),
  notifications: () => import('../pages/notifications'),
  lessons: () => import('./lessons'),
  'lesson-settings': () => import('./lesson-settings'),
  teachers: () => import('./teachers'),
  students: () => import('./students'),
  'student-custom-fields': () => import('./student-custom-fields'),
  users: () => import('./users'),
  tenants: () => import('./tenants'),
  contracts: () => import('./money/contracts'),
  account: () => import('../pages/account'),
  analytics: () => import('../pages/analytics'),
};

export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  Object.entries(PAGE_LOADERS).map(([name, load]) => [name, lazyPage(load)]),
);

/** One route per declared path: the page a declaration names, or none for the generic screen. */
export function routeTable(screens: readonly (ResourceDef | PageDef)[]): { path: string; page?: string }[] {
  return [...new Map(screens.map((s) => [routePath(s.screen.route), s.screen.page])).entries()].map(([path, page]) => ({ path, page }));
}
