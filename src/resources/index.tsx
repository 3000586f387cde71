import {
  AppstoreOutlined,
  BookOutlined,
  CalendarOutlined,
  ContainerOutlined,
  FileTextOutlined,
  FormOutlined,
  HomeOutlined,
  IdcardOutlined,
  ReadOutlined,
  ScheduleOutlined,
  ShopOutlined,
  SolutionOutlined,
  TagsOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';

// Icons are names in the resource list (cheap to compare, also for runtime resources) and
// become components only here.
const ICONS: Record<string, ReactNode> = {
  calendar: <CalendarOutlined />,
  schedule: <ScheduleOutlined />,
  team: <TeamOutlined />,
  shop: <ShopOutlined />,
  read: <ReadOutlined />,
  user: <UserOutlined />,
  solution: <SolutionOutlined />,
  book: <BookOutlined />,
  home: <HomeOutlined />,
  notes: <FileTextOutlined />,
  appstore: <AppstoreOutlined />,
  container: <ContainerOutlined />,
  tags: <TagsOutlined />,
  form: <FormOutlined />,
  idcard: <IdcardOutlined />,
};

/**
 * The sidebar and Refine's resource list. Names are the API's (`/api/<name>`), so the access
 * check reads domain/permissions for them; labels come from i18n (`<name>.<name>`); each list
 * path is a route of the client (the sidebar also hides routes the role may not open).
 */
const RESOURCES: ResourceProps[] = [
  { name: 'calendar', list: '/', meta: { iconName: 'calendar' } },
  { name: 'lessons', list: '/lessons/', meta: { iconName: 'schedule' } },
  { name: 'classes', list: '/classes/', meta: { iconName: 'read' } },
  { name: 'students', list: '/students/', meta: { iconName: 'user' } },
  { name: 'teachers', list: '/teachers/', meta: { iconName: 'solution' } },
  { name: 'subjects', list: '/subjects/', meta: { iconName: 'book' } },
  { name: 'rooms', list: '/rooms/', meta: { iconName: 'home' } },
  { name: 'notes', list: '/notes/', meta: { iconName: 'notes' } },
  { name: 'class-categories', list: '/classes/settings', meta: { iconName: 'appstore' } },
  { name: 'contract-categories', list: '/contracts/settings', meta: { iconName: 'container' } },
  { name: 'lesson-types', list: '/lessons/settings', meta: { iconName: 'tags' } },
  { name: 'lesson-tags', list: '/lessons/settings?type=lesson-tag', meta: { iconName: 'tags' } },
  { name: 'student-custom-fields', list: '/students/settings', meta: { iconName: 'form' } },
  { name: 'users', list: '/settings/', meta: { iconName: 'team' } },
  { name: 'tenants', list: '/tenants/', meta: { iconName: 'shop' } },
  { name: 'mydata', list: '/mydata/', meta: { hide: true } },
];

export const resources: ResourceProps[] = RESOURCES.map((resource) => ({
  ...resource,
  // Refine hands the access check the resource without `list`: the route travels in meta.
  meta: { ...resource.meta, route: resource.list, icon: ICONS[String(resource.meta?.iconName)] ?? <UnorderedListOutlined /> },
}));
