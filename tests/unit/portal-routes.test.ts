import { afterEach, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '../../domain/enums';
import { canOpenRoute } from '../../domain/permissions';
import { PORTAL_PAGES, SCREENS } from '../../domain/resources/index';
import { accessControlProvider, homeOf } from '../../src/engine/access-control';
import { session } from '../../src/providers/session';
import { refineResources } from '../../src/resources/index';

// What the client lets a guardian open, and what its menu shows her: the portal's screens and
// her notifications, never a staff screen; and no staff member is offered the portal.
const sidebar = async () => {
  const shown: string[] = [];
  for (const item of refineResources(SCREENS)) {
    if (item.meta?.group || item.meta?.hide) continue;
    const answer = await accessControlProvider.can({ resource: item.name, action: 'list', params: { resource: item } });
    if (answer.can) shown.push(String(item.list));
  }
  return shown;
};

afterEach(() => session.reset());

describe('a guardian in the client', () => {
  it('opens the portal and her notifications, and no staff screen', () => {
    for (const page of PORTAL_PAGES) expect(canOpenRoute('GUARDIAN', page.screen.route), page.screen.route).toBe(true);
    expect(canOpenRoute('GUARDIAN', '/notifications/')).toBe(true);
    // the staff's account page included: her details are the portal's
    const staff = SCREENS.filter((s) => s.area !== 'portal' && s.area !== 'notifications');
    for (const screen of staff) expect(canOpenRoute('GUARDIAN', screen.screen.route.split('?')[0]!), screen.screen.route).toBe(false);
  });

  it('lands on the portal home, where staff land on the calendar', () => {
    expect(homeOf('GUARDIAN')).toBe('/portal/');
    for (const role of STAFF_ROLES) expect(homeOf(role)).toBe('/');
  });

  it("her menu holds the portal's screens and the notifications only", async () => {
    session.set({ id: 40, username: 'mama@example.gr', role: 'GUARDIAN', firstName: 'Σοφία', lastName: 'Π' }, 'token');
    expect(await sidebar()).toEqual(
      expect.arrayContaining([
        '/portal/',
        '/portal/timetable/',
        '/portal/attendance/',
        '/portal/contracts/',
        '/portal/receipts/',
        '/portal/details/',
        '/notifications/',
      ]),
    );
    expect((await sidebar()).filter((route) => !route.startsWith('/portal/'))).toEqual(['/notifications/']);
  });

  it.each(STAFF_ROLES)('%s is never offered the portal', async (role) => {
    session.set({ id: 41, username: 'staff', role, firstName: 'Σ', lastName: 'Σ' }, 'token');
    expect((await sidebar()).filter((route) => route.startsWith('/portal/'))).toEqual([]);
    for (const page of PORTAL_PAGES) expect(canOpenRoute(role, page.screen.route)).toBe(false);
  });
});
