import type { ResourceDef } from '../fields';
import { TENANTS } from './tenants';
import { USERS } from './users';

export { TENANTS, USERS };

export const RESOURCES: Record<string, ResourceDef> = { users: USERS, tenants: TENANTS };
