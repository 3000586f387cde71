import type { ResourceDef, ScreenDef } from '../fields';
import type { Area } from '../permissions';
import { CLASS_CATEGORIES, CLASSES, CONTRACT_CATEGORIES, LESSON_TAGS, LESSON_TYPES, ROOMS, SUBJECTS } from './directory';
import { LESSONS, RECURRING_LESSONS } from './lessons';
import { CONTRACTS, EXPENSE_CATEGORIES, EXPENSES, PAYMENTS } from './money';
import { NOTES, STUDENT_CUSTOM_FIELDS, STUDENTS, TEACHERS } from './people';
import { TENANTS } from './tenants';
import { USERS } from './users';

export { SCHEDULE_FIELDS, TEACHER_LESSON_FIELDS } from './lessons';

export {
  CLASS_CATEGORIES,
  CLASSES,
  CONTRACT_CATEGORIES,
  CONTRACTS,
  EXPENSE_CATEGORIES,
  EXPENSES,
  LESSON_TAGS,
  LESSON_TYPES,
  LESSONS,
  NOTES,
  PAYMENTS,
  RECURRING_LESSONS,
  ROOMS,
  STUDENT_CUSTOM_FIELDS,
  STUDENTS,
  SUBJECTS,
  TEACHERS,
  TENANTS,
  USERS,
};

/** Every declared resource by API name, in the order of the sidebar. */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [
    LESSONS,
    RECURRING_LESSONS,
    CLASSES,
    STUDENTS,
    TEACHERS,
    CONTRACTS,
    PAYMENTS,
    EXPENSES,
    SUBJECTS,
    ROOMS,
    NOTES,
    CLASS_CATEGORIES,
    CONTRACT_CATEGORIES,
    EXPENSE_CATEGORIES,
    LESSON_TYPES,
    LESSON_TAGS,
    STUDENT_CUSTOM_FIELDS,
    USERS,
    TENANTS,
  ].map((r) => [r.name, r]),
);

/** A screen that is not one resource (the calendar, my data): a route, a page, an area. */
export interface PageDef {
  name: string;
  area: Area;
  screen: Pick<ScreenDef, 'route' | 'icon' | 'group' | 'hidden' | 'opensFor'> & { page: string };
}

export const CALENDAR_PAGE: PageDef = { name: 'calendar', area: 'lessons', screen: { route: '/', icon: 'calendar', page: 'calendar' } };
export const MYDATA_PAGE: PageDef = { name: 'mydata', area: 'mydata', screen: { route: '/mydata/', page: 'mydata', hidden: true } };

/** Everything the client routes to, in sidebar order. */
export const SCREENS: readonly (ResourceDef | PageDef)[] = [CALENDAR_PAGE, ...Object.values(RESOURCES), MYDATA_PAGE];

/** The route's path without its query and trailing slash ('/' stays '/'). */
export const routePath = (route: string) => route.split('?')[0]!.replace(/\/+$/, '') || '/';

/** Where a row of a resource with a view is shown: its screen's view drawer. */
export function viewRoutesOf(defs: readonly ResourceDef[]): Record<string, { path: string; param: string }> {
  return Object.fromEntries(defs.filter((d) => d.screen.modes.includes('view')).map((d) => [d.name, { path: d.screen.route, param: d.screen.entity }]));
}

export const VIEW_ROUTES = viewRoutesOf(Object.values(RESOURCES));
