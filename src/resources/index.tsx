import {
  AccountBookOutlined,
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  CalendarOutlined,
  EuroOutlined,
  ContainerOutlined,
  FileTextOutlined,
  FolderOutlined,
  FormOutlined,
  HomeOutlined,
  IdcardOutlined,
  MessageOutlined,
  ReadOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  SolutionOutlined,
  TagsOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';
import type { ResourceDef } from '../../domain/fields';
import { SCREENS, type PageDef } from '../../domain/resources/index';
import { ENTITY_ICONS } from './entity-icons';

// Icons are names in the declarations (cheap to compare, and a runtime declaration can name
// one) and become components only here.
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
  setting: <SettingOutlined />,
  'file-text': <FileTextOutlined />,
  euro: <EuroOutlined />,
  'account-book': <AccountBookOutlined />,
  'bar-chart': <BarChartOutlined />,
  folder: <FolderOutlined />,
  bell: <BellOutlined />,
  bank: <BankOutlined />,
  message: <MessageOutlined />,
};

const GROUP_ICONS: Record<string, string> = { settings: 'setting' };

export const iconOf = (name: string | undefined): ReactNode =>
  (name && (Object.hasOwn(ICONS, name) ? ICONS[name] : Object.hasOwn(ENTITY_ICONS, name) ? ENTITY_ICONS[name as keyof typeof ENTITY_ICONS] : undefined)) || (
    <UnorderedListOutlined />
  );

/** A screen that came as a declaration at run time: its slug in `/custom-entities/entity/<slug>/`. */
export const runtimeIdentifier = (def: ResourceDef) => `runtime:${def.screen.route}`;

/**
 * The sidebar and Refine's resource list, derived from the declarations. Names are the API's
 * (`/api/<name>`); labels come from i18n (`<name>.<name>`); the area and the route travel in
 * meta, because Refine hands the access check the resource without `list`.
 */
export function refineResources(screens: readonly (ResourceDef | PageDef)[], runtime: readonly ResourceDef[] = []): ResourceProps[] {
  const list: ResourceProps[] = [];
  const add = (def: ResourceDef | PageDef, identifier?: string) => {
    const group = def.screen.group;
    // a group is an entry of its own, placed where its first member would be
    if (group && !list.some((r) => r.name === group)) list.push({ name: group, meta: { group: true, icon: iconOf(GROUP_ICONS[group]) } });
    list.push({
      name: def.name,
      ...(identifier ? { identifier } : {}),
      list: def.screen.route,
      meta: {
        route: def.screen.route,
        area: def.area,
        icon: iconOf(def.screen.icon),
        ...(group ? { parent: group } : {}),
        ...(def.screen.hidden ? { hide: true } : {}),
      },
    });
  };
  for (const screen of screens) add(screen);
  for (const def of runtime) add(def, runtimeIdentifier(def));
  return list;
}

export const resources: ResourceProps[] = refineResources(SCREENS);
