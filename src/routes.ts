import type { ComponentType } from 'react';
import type { ResourceDef } from '../domain/fields';
import { routePath, SCREENS, type PageDef } from '../domain/resources/index';
import { type LazyPart, lazyPage } from './lazy';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * The pages a declaration names (`screen.page`) because the generic screen is not enough for
 * them. Every other declared resource is shown by the generic screen without a file of its
 * own. Each page is its own chunk.
 */
export const PAGE_LOADERS: Record<string, Loader> = {
  calendar: () => import('./pages/calendar'),
  mydata: () => import('./pages/mydata'),
  notifications: () => import('./pages/notifications'),
  lessons: () => import('./resources/lessons'),
  'lesson-settings': () => import('./resources/lesson-settings'),
  teachers: () => import('./resources/teachers'),
  students: () => import('./resources/students'),
  guardians: () => import('./resources/guardians/index'),
  'student-custom-fields': () => import('./resources/student-custom-fields'),
  users: () => import('./resources/users'),
  tenants: () => import('./resources/tenants'),
  contracts: () => import('./resources/money/contracts'),
  account: () => import('./pages/account'),
  receipts: () => import('./pages/receipts'),
  messages: () => import('./pages/messages'),
  'centre-settings': () => import('./pages/centre-settings'),
  analytics: () => import('./pages/analytics'),
  'custom-entities': () => import('./resources/custom-entities/list'),
  'custom-entity-builder': () => import('./resources/custom-entities/builder'),
  'file-management': () => import('./resources/files/index'),
  'portal-home': () => import('./pages/portal/home'),
  'portal-timetable': () => import('./pages/portal/timetable'),
  'portal-attendance': () => import('./pages/portal/attendance'),
  'portal-contracts': () => import('./pages/portal/contracts'),
  'portal-receipts': () => import('./pages/portal/receipts'),
  'portal-details': () => import('./pages/portal/details'),
};

/**
 * The custom-entity screens of ROOT: the list of the centre's entities (a sidebar entry) and
 * the builder (reached from it). Their routes are guarded in domain/permissions.
 */
export const ENTITY_PAGES: readonly PageDef[] = [
  {
    name: 'custom-entities',
    area: 'customEntityDefinitions',
    screen: { route: '/custom-entities/', icon: 'appstore', page: 'custom-entities', opensFor: 'writers' },
  },
  {
    name: 'custom-entity-builder',
    area: 'customEntityDefinitions',
    screen: { route: '/custom-entities/builder/', page: 'custom-entity-builder', hidden: true, opensFor: 'writers' },
  },
];

/** Every screen of the client: the declared ones and the custom-entity pages. */
export const CLIENT_SCREENS: readonly (ResourceDef | PageDef)[] = [...SCREENS, ...ENTITY_PAGES];

export const PAGES: Record<string, LazyPart<ComponentType>> = Object.fromEntries(Object.entries(PAGE_LOADERS).map(([name, load]) => [name, lazyPage(load)]));

/** One route per declared path: the page a declaration names, or none for the generic screen. */
export function routeTable(screens: readonly (ResourceDef | PageDef)[]): { path: string; page?: string }[] {
  return [...new Map(screens.map((s) => [routePath(s.screen.route), s.screen.page])).entries()].map(([path, page]) => ({ path, page }));
}
