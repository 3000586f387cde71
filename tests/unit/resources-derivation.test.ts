// Every declared resource reaches the client from its one declaration: a route, a Refine
// resource (sidebar entry, group, access area) and a screen (the generic one or a named page),
// and a declaration arriving as JSON at run time is mounted by the same code.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { can, canOpenRoute, RESOURCE_AREA, ROUTE_ROLES, type Area } from '../../domain/permissions';
import { RESOURCES, ROOMS, routePath, SCREENS } from '../../domain/resources/index';
import type { ResourceDef } from '../../domain/fields';
import { accessControlProvider } from '../../src/engine/access-control';
import { session } from '../../src/providers/session';
import { refineResources, resources, runtimeIdentifier } from '../../src/resources/index';
import { CLIENT_SCREENS, ENTITY_PAGES, PAGE_LOADERS, routeTable } from '../../src/routes';
import { PLAIN_RESOURCES } from '../../src/engine/resource-route';
import { setRuntimeDeclarations } from '../../src/engine/registry';
import { parseRuntimeDeclarations } from '../../src/engine/runtime/runtime-parse';
import { declaredTabs } from '../../src/engine/view/declared-tabs';
import { DETAIL_TABS } from '../../src/resources/detail-tabs';

const DECLARED = Object.values(RESOURCES);
const ROUTES = routeTable(SCREENS);

describe.each(DECLARED.map((d) => [d.name, d] as const))('%s', (_name, def) => {
  it('has a client route, with its page or the generic screen', () => {
    const route = ROUTES.find((r) => r.path === routePath(def.screen.route));
    expect(route, def.screen.route).toBeDefined();
    expect(route!.page).toBe(def.screen.page);
    if (def.screen.page) expect(PAGE_LOADERS[def.screen.page], def.screen.page).toBeTypeOf('function');
    else expect(PLAIN_RESOURCES).toContain(def);
  });

  it('has its Refine resource: route, area and sidebar group from the declaration', () => {
    const item = resources.find((r) => r.name === def.name);
    expect(item?.list).toBe(def.screen.route);
    expect(item?.meta).toMatchObject({ route: def.screen.route, area: def.area });
    expect(item?.meta?.parent).toBe(def.screen.group);
    if (def.screen.group) expect(resources.find((r) => r.name === def.screen.group)?.meta?.group).toBe(true);
  });

  it('names its area once: RESOURCE_AREA and the route guard follow', () => {
    expect(RESOURCE_AREA[def.name]).toBe(def.area);
    const guard = ROUTE_ROLES.find((g) => g.path === routePath(def.screen.route));
    const roles = (['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'] as const).filter((r) => can(r, def.area, def.screen.opensFor === 'writers' ? 'update' : 'read'));
    expect(guard?.roles).toEqual(roles);
  });

  it('lists and shows only fields it declares', () => {
    const names = new Set([...def.fields.map((f) => f.name), 'id', 'created_at', 'updated_at']);
    for (const list of [def.screen.listFields, def.screen.formFields, def.screen.titleFields, def.screen.ownerField ? [def.screen.ownerField] : []]) {
      for (const name of list ?? []) expect(names.has(name), name).toBe(true);
    }
    for (const sort of def.defaultSort) expect(names.has(sort.field), sort.field).toBe(true);
  });
});

it('every page of the page map is a screen someone declares, and loads as a component', async () => {
  const named = new Set(CLIENT_SCREENS.map((s) => s.screen.page).filter(Boolean));
  expect(Object.keys(PAGE_LOADERS).sort()).toEqual([...named].sort());
  for (const [name, load] of Object.entries(PAGE_LOADERS)) {
    expect((await load()).default, name).toBeTypeOf('function');
  }
}, 60_000);

it('screens sharing a path share one page and one guard', () => {
  for (const { path } of ROUTES) {
    const sharing = SCREENS.filter((s) => routePath(s.screen.route) === path);
    expect(new Set(sharing.map((s) => s.screen.page)).size, path).toBe(1);
    expect(new Set(ROUTE_ROLES.filter((g) => g.path === path).map((g) => g.roles.join())).size, path).toBe(1);
  }
});

it('the settings pages sit in one Settings group, in the sidebar after the top-level screens', () => {
  const grouped = resources.filter((r) => r.meta?.parent === 'settings').map((r) => r.name);
  // In the screens' own order (screen.order), as many as declare the group (declarations and pages alike).
  const declared = SCREENS.filter((d) => d.screen.group === 'settings').map((d) => d.name);
  expect(declared.length).toBeGreaterThan(0);
  expect(grouped).toEqual(declared);
});

it('the custom-entity list and builder are routes of ROOT alone, the list in the sidebar', () => {
  const paths = routeTable(CLIENT_SCREENS).map((r) => r.path);
  for (const page of ENTITY_PAGES) {
    expect(paths).toContain(routePath(page.screen.route));
    for (const role of ['ADMIN', 'SECRETARY', 'TEACHER'] as const) expect(canOpenRoute(role, page.screen.route), `${role} ${page.screen.route}`).toBe(false);
    expect(canOpenRoute('ROOT', page.screen.route)).toBe(true);
  }
  const items = refineResources(CLIENT_SCREENS);
  expect(items.find((r) => r.name === 'custom-entities')?.meta?.hide).toBeUndefined();
  expect(items.find((r) => r.name === 'custom-entity-builder')?.meta?.hide).toBe(true);
});

describe('a declaration arriving at run time', () => {
  // A copy of rooms as the server would send it: JSON, icon as a name, at a runtime route.
  const json = JSON.parse(
    JSON.stringify([{ ...ROOMS, screen: { route: '/custom-entities/entity/rooms-copy/', entity: 'room', modes: ['create', 'update', 'view'], icon: 'home' } }]),
  ) as unknown;
  afterEach(() => {
    setRuntimeDeclarations([]);
    session.reset();
  });

  it('is read back as the same declaration, and bad ones are left out', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [def] = parseRuntimeDeclarations({ data: json });
    expect(def).toEqual({
      ...ROOMS,
      screen: { route: '/custom-entities/entity/rooms-copy/', entity: 'room', modes: ['create', 'update', 'view'], icon: 'home' },
    });
    const bad = [
      { ...ROOMS, screen: { ...ROOMS.screen, route: '/rooms/' } }, // not a runtime route
      { ...ROOMS, area: 'everything', screen: { ...(json as ResourceDef[])[0]!.screen } },
      { ...ROOMS, screen: { ...(json as ResourceDef[])[0]!.screen, page: 'students' } }, // no code of the build
      { ...ROOMS, fields: [{ name: 'x', type: 'SCRIPT' }], screen: (json as ResourceDef[])[0]!.screen },
      'rooms',
      null,
    ];
    expect(parseRuntimeDeclarations({ data: bad })).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(bad.length);
    warn.mockRestore();
    expect(parseRuntimeDeclarations({ data: [...(json as unknown[]), ...(json as unknown[])] })).toHaveLength(1);
  });

  it('becomes a Refine resource, a route guard and an access answer', async () => {
    const defs = parseRuntimeDeclarations(json);
    const item = refineResources(SCREENS, defs).find((r) => r.identifier === runtimeIdentifier(defs[0]!));
    expect(item).toMatchObject({ name: 'rooms', list: '/custom-entities/entity/rooms-copy/', meta: { area: 'directory' } });

    setRuntimeDeclarations(defs);
    session.set({ id: 7, username: 'maria', role: 'TEACHER', firstName: 'Μαρία', lastName: 'Νικολάου' }, 'token');
    const ask = (action: string) => accessControlProvider.can({ resource: 'rooms', action, params: { resource: { name: 'rooms', meta: item!.meta } } });
    await expect(ask('list')).resolves.toEqual({ can: true });
    await expect(ask('create')).resolves.toEqual({ can: false });
    expect(canOpenRoute('TEACHER', '/custom-entities/entity/rooms-copy/')).toBe(true);
  });

  it('guards its route by its own area', async () => {
    const [def] = parseRuntimeDeclarations(json);
    const secret = { ...def!, name: 'accounts-x', area: 'account' as Area, screen: { ...def!.screen, route: '/custom-entities/entity/secret/' } };
    setRuntimeDeclarations(parseRuntimeDeclarations([secret]));
    session.set({ id: 8, username: 'sec', role: 'SECRETARY', firstName: 'Σ', lastName: 'Σ' }, 'token');
    await expect(accessControlProvider.can({ resource: 'route', action: 'open', params: { pathname: '/custom-entities/entity/secret/' } })).resolves.toEqual({
      can: false,
    });
  });
});

it('a TEACHER may change only the notes they wrote', async () => {
  session.set({ id: 7, username: 'maria', role: 'TEACHER', firstName: 'Μαρία', lastName: 'Νικολάου' }, 'token');
  const ask = (action: string, author: number) =>
    accessControlProvider.can({ resource: 'notes', action, params: { id: 1, meta: { record: { id: 1, author_id: author } } } });
  await expect(ask('edit', 7)).resolves.toEqual({ can: true });
  await expect(ask('edit', 8)).resolves.toEqual({ can: false });
  await expect(ask('delete', 8)).resolves.toEqual({ can: false });
  await expect(ask('show', 8)).resolves.toEqual({ can: true });
  session.set({ id: 9, username: 'admin', role: 'ADMIN', firstName: 'A', lastName: 'A' }, 'token');
  await expect(ask('edit', 8)).resolves.toEqual({ can: true });
  session.reset();
});

describe('the detail tabs a declaration names', () => {
  const t = (key: string) => key;
  it.each(DECLARED.filter((d) => d.screen.tabs?.length).map((d) => [d.name, d] as const))('%s: every one is shown, in the declared order', (_name, def) => {
    const tabs = declaredTabs(def, 1, t, DETAIL_TABS);
    expect(tabs.map((tab) => tab.key)).toEqual(def.screen.tabs);
    for (const tab of tabs) expect(tab.label).toBe(DETAIL_TABS[String(tab.key)]?.label);
  });

  it('a tab that does not apply to a resource is left out (a student has no series of her own)', () => {
    const tabs = declaredTabs({ ...RESOURCES.students!, screen: { ...RESOURCES.students!.screen, tabs: ['lessons', 'recurring-lessons'] } }, 1, t, DETAIL_TABS);
    expect(tabs.map((tab) => tab.key)).toEqual(['lessons']);
  });
});
