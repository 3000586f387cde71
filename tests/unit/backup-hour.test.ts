// The embedded database's backup holds the database while it runs, so it runs at night: at
// BACKUP_HOUR in Greek time, whatever the season (UTC+2 in winter, UTC+3 in summer).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { nextBackupAt } from '../../server/jobs/backup';

const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

describe('the nightly backup', () => {
  it('runs at 03:00 Greek time by default: 01:00 UTC in winter, 00:00 UTC in summer', () => {
    const hour = loadConfig({}).backupHour;
    expect(hour).toBe(3);
    expect(iso(nextBackupAt(at('2026-12-07T10:00:00Z'), hour))).toBe('2026-12-08T01:00:00.000Z');
    expect(iso(nextBackupAt(at('2026-07-01T12:00:00Z'), hour))).toBe('2026-07-02T00:00:00.000Z');
    // Just before the hour, it is the same night's; just after, the next night's.
    expect(iso(nextBackupAt(at('2026-12-08T00:59:00Z'), hour))).toBe('2026-12-08T01:00:00.000Z');
    expect(iso(nextBackupAt(at('2026-12-08T01:00:00Z'), hour))).toBe('2026-12-09T01:00:00.000Z');
  });

  it('follows BACKUP_HOUR, and refuses an hour that is not one', () => {
    const hour = loadConfig({ BACKUP_HOUR: '23' }).backupHour;
    expect(iso(nextBackupAt(at('2026-12-07T10:00:00Z'), hour))).toBe('2026-12-07T21:00:00.000Z');
    expect(() => loadConfig({ BACKUP_HOUR: '24' })).toThrow(/BACKUP_HOUR must be an hour from 0 to 23/);
    expect(() => loadConfig({ BACKUP_HOUR: 'night' })).toThrow(/BACKUP_HOUR/);
  });
});
