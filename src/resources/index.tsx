import { CalendarOutlined, ShopOutlined, TeamOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';

// Icons are names in the resource list (cheap to compare, also for runtime resources) and
// become components only here.
const ICONS: Record<string, ReactNode> = {
  calendar: <CalendarOutlined />,
  team: <TeamOutlined />,
  shop: <ShopOutlined />,
};

/**
 * The sidebar and Refine's resource list. Labels come from i18n (`<name>.<name>`); each
 * list path is a route of SPEC.md section 2. Access per role: domain/permissions.
 */
const RESOURCES: ResourceProps[] = [
  { name: 'calendar', list: '/', meta: { iconName: 'calendar' } },
  { name: 'users', list: '/settings/', meta: { iconName: 'team' } },
  { name: 'tenants', list: '/tenants/', meta: { iconName: 'shop' } },
  { name: 'mydata', list: '/mydata/', meta: { hide: true } },
];

export const resources: ResourceProps[] = RESOURCES.map((resource) => ({
  ...resource,
  meta: { ...resource.meta, icon: ICONS[String(resource.meta?.iconName)] ?? <UnorderedListOutlined /> },
}));
