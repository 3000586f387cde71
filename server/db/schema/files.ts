/**
 * The centre's folders and files (domain/resources/files.ts). A file's bytes live in the
 * storage (a folder under DATA_DIR or an S3 bucket) under `storage_key`, a generated name;
 * the user's file name is only a column here. Deleting a file or folder leaves its bytes for
 * a while (file_deletions): an older backup of the database, restored, still finds them.
 */
import { bigint, foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, rowMeta, sortKeyColumn } from './columns';
import { id, search, tenantId } from './tenant-columns';

export const folders = pgTable(
  'folders',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), parentId: integer('parent_id'), search: search(), ...rowMeta() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('folders_parent_idx').on(t.tenantId, t.parentId),
    // No cascade: a folder with contents is refused (409 in-use) unless asked to delete them too.
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id] }),
  ],
);

export const files = pgTable(
  'files',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    nameSort: sortKeyColumn('name'),
    folderId: integer('folder_id'),
    size: bigint('size', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Who uploaded it, by name as it was then (a ROOT is no user of the centre). */
    uploadedBy: text('uploaded_by'),
    uploadedById: integer('uploaded_by_id'),
    uploadedAt: instant('uploaded_at').notNull().defaultNow(),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('files_folder_idx').on(t.tenantId, t.folderId),
    foreignKey({ columns: [t.tenantId, t.folderId], foreignColumns: [folders.tenantId, folders.id] }),
  ],
);

/** Stored bytes whose file is gone; the clean-up job removes them once no kept backup can name them. */
export const fileDeletions = pgTable(
  'file_deletions',
  { tenantId: tenantId(), storageKey: text('storage_key').notNull(), deletedAt: instant('deleted_at').notNull().defaultNow() },
  (t) => [primaryKey({ columns: [t.tenantId, t.storageKey] })],
);
