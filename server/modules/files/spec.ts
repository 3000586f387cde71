/**
 * Folders and files on the CRUD engine. A folder moves anywhere but into itself or one of its
 * own folders; a folder with contents is deleted only with `?recursive=true` (otherwise 409
 * in-use, counting what it holds). A deleted file's bytes are not removed at once: its key
 * goes to file_deletions and the clean-up job removes the bytes once no kept backup names them.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DomainError, FILES, FOLDERS, type FieldErrors } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { fileDeletions, files, folders } from '../../db/schema/index';
import { recordHistory, recordHistoryMany } from '../../engine/history';
import type { Ctx, Data, ResourceSpec, WriteArgs } from '../../engine/spec';
import { historyView, releaseReferences } from '../../engine/write';

/** What the upload learned about the bytes, handed to the files spec for its columns. */
export interface UploadFacts {
  size: number;
  mime_type: string;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  uploaded_by_id: number | null;
}

/** A name shows in paths and downloads: no slashes, whatever the text rules already allow. */
function checkName({ input }: WriteArgs): Promise<undefined> {
  const fields: FieldErrors = {};
  if (typeof input.name === 'string' && /[/\\]/.test(input.name)) fields.name = 'invalid-format';
  if (Object.keys(fields).length) throw new DomainError('validation', 'A name may not hold a slash.', fields);
  return Promise.resolve(undefined);
}

/** The folder and every folder inside it, at any depth. */
async function subtree(tx: Tx, ctx: Ctx, id: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`with recursive tree(id) as (
          select ${folders.id} from ${folders} where ${folders.tenantId} = ${ctx.tenantId} and ${folders.id} = ${id}
          union all
          select f.id from folders f join tree on f.parent_id = tree.id where f.tenant_id = ${ctx.tenantId})
        select id from tree`,
  );
  return rows.map((r) => Number(r.id));
}

/** Keeps the keys of deleted files for the clean-up job, then deletes the rows with their history. */
async function deleteFiles(tx: Tx, ctx: Ctx, rows: Data[]) {
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  const kept = await tx
    .select({ key: files.storageKey })
    .from(files)
    .where(and(eq(files.tenantId, ctx.tenantId), inArray(files.id, ids)));
  if (kept.length)
    await tx
      .insert(fileDeletions)
      .values(kept.map((k) => ({ tenantId: ctx.tenantId, storageKey: k.key })))
      .onConflictDoNothing();
  await tx.delete(files).where(and(eq(files.tenantId, ctx.tenantId), inArray(files.id, ids)));
  await recordHistoryMany(
    tx,
    ctx.tenantId,
    ctx.actor,
    rows.map((row) => ({ entity: 'files', entityId: row.id, action: 'delete' as const, before: historyView(filesSpec, row) })),
  );
}

const fileColumns = {
  id: files.id,
  version: files.version,
  name: files.name,
  folder_id: files.folderId,
  size: files.size,
  mime_type: files.mimeType,
  sha256: files.sha256,
  uploaded_by: files.uploadedBy,
  uploaded_at: files.uploadedAt,
};

export const filesSpec: ResourceSpec = {
  def: FILES,
  table: files,
  label: files.name.getSQL(),
  createdElsewhere: true,
  // Made only by an upload (routes.ts), which hands over what it learned about the bytes.
  async beforeWrite(args) {
    await checkName(args);
    if (args.before) return undefined;
    const upload = args.input.upload as UploadFacts;
    return { ...upload };
  },
  async remove(tx, ctx, before) {
    await deleteFiles(tx, ctx, [before]);
  },
};

export const foldersSpec: ResourceSpec = {
  def: FOLDERS,
  table: folders,
  label: folders.name.getSQL(),
  async beforeWrite(args) {
    await checkName(args);
    const { tx, ctx, input, before } = args;
    const parent = input.parent_id;
    if (before && typeof parent === 'number' && (await subtree(tx, ctx, before.id)).includes(parent)) {
      throw new DomainError('validation', 'A folder cannot move into itself or into a folder inside it.', { parent_id: 'invalid' });
    }
    return undefined;
  },
  async remove(tx, ctx, before, options, registry) {
    if (options.recursive !== 'true' && options.recursive !== true) {
      // Refuses with the count of what the folder holds (409 in-use).
      await releaseReferences(tx, registry, ctx, foldersSpec, before.id);
    }
    const tree = await subtree(tx, ctx, before.id);
    const inside = await tx
      .select(fileColumns)
      .from(files)
      .where(and(eq(files.tenantId, ctx.tenantId), inArray(files.folderId, tree)));
    await deleteFiles(
      tx,
      ctx,
      inside.map((row) => ({ ...row, uploaded_at: (row.uploaded_at as Date).toISOString() })),
    );
    const gone = await tx
      .select({ id: folders.id, name: folders.name, parent_id: folders.parentId })
      .from(folders)
      .where(and(eq(folders.tenantId, ctx.tenantId), inArray(folders.id, tree)));
    // One statement: the folders' references to each other are checked at its end.
    await tx.delete(folders).where(and(eq(folders.tenantId, ctx.tenantId), inArray(folders.id, tree)));
    const others = gone.filter((f) => f.id !== before.id);
    await recordHistoryMany(
      tx,
      ctx.tenantId,
      ctx.actor,
      others.map((f) => ({ entity: 'folders', entityId: f.id, action: 'delete' as const, before: { name: f.name, parent_id: f.parent_id } })),
    );
    await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: 'folders', entityId: before.id, action: 'delete', before: historyView(foldersSpec, before) });
  },
};
