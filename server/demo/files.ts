/**
 * DEMO_DATA=1: a few of the centre's documents, once (a tenant that already has folders is
 * left alone): folders for timetables and forms, and a price list as plain text, stored
 * through the same store and CRUD code as an upload.
 */
import { count } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { withTenant } from '../db/doors';
import { folders } from '../db/schema/index';
import { createRow } from '../engine/write';
import { filesSpec, foldersSpec } from '../modules/files/spec';
import { newKey, openFileStore } from '../modules/files/storage';
import type { Registry } from '../engine/registry';

const PRICE_LIST = `Τιμοκατάλογος σχολικού έτους
Γυμνάσιο: 90 € τον μήνα
Λύκειο: 140 € τον μήνα
Εγγραφή: 50 €
`;

export async function ensureDemoFiles(database: Database, registry: Registry, tenantId: number, config: Config): Promise<void> {
  const ctx = { tenantId, actor: null };
  const [has] = await withTenant(database, tenantId, (tx) => tx.select({ n: count() }).from(folders));
  if (has && has.n > 0) return;
  const bytes = Buffer.from(PRICE_LIST, 'utf8');
  const key = newKey(tenantId);
  await openFileStore(config).put(key, Readable.from([bytes]));
  await withTenant(database, tenantId, async (tx) => {
    const documents = await createRow(tx, registry, ctx, foldersSpec, { name: 'Έγγραφα', parent_id: null });
    await createRow(tx, registry, ctx, foldersSpec, { name: 'Έντυπα εγγραφής', parent_id: documents.id });
    await createRow(tx, registry, ctx, foldersSpec, { name: 'Προγράμματα', parent_id: null });
    const upload = {
      size: bytes.length,
      mime_type: 'text/plain',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storage_key: key,
      uploaded_by: 'Frontis',
      uploaded_by_id: null,
    };
    await createRow(tx, registry, ctx, filesSpec, { name: 'Τιμοκατάλογος.txt', folder_id: documents.id, upload });
  });
}
