import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from '../lazy';

/**
 * The pages a declaration names (`screen.page`) because the generic screen is not enough for
 * them. Every other declared resource is shown by the generic screen without a file of its
 * own. Each page is its own chunk.
 */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  calendar: lazyPage(() => import('../pages/calendar')),
  mydata: lazyPage(() => import('../pages/mydata')),
  lessons: lazyPage(() => import('./lessons')),
  'lesson-settings': lazyPage(() => import('./lesson-settings')),
  teachers: lazyPage(() => import('./teachers')),
  students: lazyPage(() => import('./students')),
  'student-custom-fields': lazyPage(() => import('./student-custom-fields')),
  users: lazyPage(() => import('./users')),
  tenants: lazyPage(() => import('./tenants')),
};
