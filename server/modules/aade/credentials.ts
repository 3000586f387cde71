/**
 * How the job opens a centre's stored AADE subscription key: the settings module seals it
 * (server/modules/settings/secret-box.ts); this is the one place the job opens it.
 */
import type { Database } from '../../db/types';
import { open, settingsKey } from '../settings/secret-box';
import type { OpenSecret } from './job';

export function subscriptionKeyOpener(database: Database): OpenSecret {
  return async (stored) => open(await settingsKey(database), stored);
}
