import type { ResourceDef, ScreenDef } from '../fields';
import type { Area } from '../access';
import * as declarations from './declarations';

export * from './declarations';

/** Sidebar place of a declaration or page: its own `screen.order`, or after every numbered one. */
const place = (def: { screen: { order?: number } }) => def.screen.order ?? Number.MAX_SAFE_INTEGER;

const isDeclaration = (value: unknown): value is ResourceDef =>
  typeof value === 'object' && value !== null && 'name' in value && 'fields' in value && 'screen' in value;

/**
 * Every declared resource by API name, in the order of the sidebar: each ResourceDef the
 * declaration files export is one (./declarations.ts), so declaring a resource is all it takes
 * to list it here and to import it by name from this module.
 */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  Object.values(declarations)
    .flatMap((value) => (isDeclaration(value) ? [value] : []))
    .sort((a, b) => place(a) - place(b))
    .map((r) => [r.name, r]),
);

/** A screen that is not one resource (the calendar, my data): a route, a page, an area. */
export interface PageDef {
  name: string;
  area: Area;
  screen: Pick<ScreenDef, 'route' | 'icon' | 'order' | 'group' | 'hidden' | 'opensFor'> & { page: string };
}

export const CALENDAR_PAGE: PageDef = { name: 'calendar', area: 'lessons', screen: { order: 0, route: '/', icon: 'calendar', page: 'calendar' } };
export const ANALYTICS_PAGE: PageDef = {
  name: 'analytics',
  area: 'analytics',
  screen: { order: 1000, route: '/analytics/', icon: 'bar-chart', page: 'analytics' },
};
export const NOTIFICATIONS_PAGE: PageDef = {
  name: 'notifications',
  area: 'notifications',
  screen: { order: 1010, route: '/notifications/', icon: 'bell', page: 'notifications' },
};
/** One's own account, for staff (opened by those who may change it): a guardian's details are the portal's. */
export const MYDATA_PAGE: PageDef = {
  name: 'mydata',
  area: 'mydata',
  screen: { order: 1020, route: '/mydata/', page: 'mydata', hidden: true, opensFor: 'writers' },
};
/** The centre's receipts (fiscal documents): read, printed, cancelled by a credit receipt. */
export const RECEIPTS_PAGE: PageDef = { name: 'receipts', area: 'receipts', screen: { order: 75, route: '/receipts/', icon: 'file-text', page: 'receipts' } };
/** The log of messages to families, by e-mail and SMS: what was sent, to whom, and what became of it. */
export const MESSAGES_PAGE: PageDef = { name: 'messages', area: 'messages', screen: { order: 77, route: '/messages/', icon: 'message', page: 'messages' } };
/** The centre's details as the issuer of its receipts, myDATA and reminders (under Settings). */
export const CENTRE_SETTINGS_PAGE: PageDef = {
  name: 'centre-settings',
  area: 'settings',
  screen: { order: 165, route: '/settings/centre/', icon: 'bank', page: 'centre-settings', group: 'settings', opensFor: 'writers' },
};
/**
 * The families' portal: what a guardian opens (area `portal`, so only GUARDIAN), each child's
 * lessons, marks, contracts and receipts, and her own details. Staff never see these entries.
 */
export const PORTAL_PAGES: readonly PageDef[] = [
  { name: 'portal-home', area: 'portal', screen: { order: 1, route: '/portal/', icon: 'home', page: 'portal-home' } },
  { name: 'portal-timetable', area: 'portal', screen: { order: 2, route: '/portal/timetable/', icon: 'calendar', page: 'portal-timetable' } },
  { name: 'portal-attendance', area: 'portal', screen: { order: 3, route: '/portal/attendance/', icon: 'schedule', page: 'portal-attendance' } },
  { name: 'portal-contracts', area: 'portal', screen: { order: 4, route: '/portal/contracts/', icon: 'euro', page: 'portal-contracts' } },
  { name: 'portal-receipts', area: 'portal', screen: { order: 5, route: '/portal/receipts/', icon: 'file-text', page: 'portal-receipts' } },
  { name: 'portal-details', area: 'portal', screen: { order: 1015, route: '/portal/details/', icon: 'idcard', page: 'portal-details' } },
];

/** Everything the client routes to, in sidebar order: each declaration's and page's `screen.order`. */
export const SCREENS: readonly (ResourceDef | PageDef)[] = [
  CALENDAR_PAGE,
  ...Object.values(RESOURCES),
  ANALYTICS_PAGE,
  NOTIFICATIONS_PAGE,
  MYDATA_PAGE,
  RECEIPTS_PAGE,
  MESSAGES_PAGE,
  CENTRE_SETTINGS_PAGE,
  ...PORTAL_PAGES,
].sort((a, b) => place(a) - place(b));

/** The route's path without its query and trailing slash ('/' stays '/'). */
export const routePath = (route: string) => route.split('?')[0]!.replace(/\/+$/, '') || '/';

/** Where a row of a resource with a view is shown: its screen's view drawer. */
export function viewRoutesOf(defs: readonly ResourceDef[]): Record<string, { path: string; param: string }> {
  return Object.fromEntries(defs.filter((d) => d.screen.modes.includes('view')).map((d) => [d.name, { path: d.screen.route, param: d.screen.entity }]));
}

export const VIEW_ROUTES = viewRoutesOf(Object.values(RESOURCES));

/**
 * The order to create rows of `defs` in: a resource after every resource of `defs` it points
 * at. A circle of links (a class lists its students, a student her classes) is broken at the
 * resource that waits for the fewest through REFERENCES fields only; it is created first and
 * those links are filled afterwards. A REFERENCE is never left waiting while any order avoids
 * it. Ties keep the order of `defs`.
 */
export function creationOrder(defs: readonly ResourceDef[]): ResourceDef[] {
  const names = new Set(defs.map((d) => d.name));
  const pointsAt = (d: ResourceDef) => d.fields.filter((f) => f.reference && f.reference !== d.name && names.has(f.reference));
  const order: ResourceDef[] = [];
  let left = [...defs];
  // What a resource still waits for: a REFERENCE outweighs any number of REFERENCES links.
  const waiting = (d: ResourceDef) =>
    pointsAt(d)
      .filter((f) => left.some((l) => l.name === f.reference))
      .reduce((sum, f) => sum + (f.type === 'REFERENCE' ? 1000 : 1), 0);
  while (left.length) {
    const next = left.reduce((best, d) => (waiting(d) < waiting(best) ? d : best));
    order.push(next);
    left = left.filter((d) => d !== next);
  }
  return order;
}
