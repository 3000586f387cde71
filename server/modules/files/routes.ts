/**
 * What files add to the CRUD routes under /api/files: the upload (multipart, one file a
 * request, so a browser shows each file's progress and may cancel it) and the content.
 * An upload is streamed to the store while its size is counted, its SHA-256 computed and its
 * first bytes kept for sniffing; over MAX_UPLOAD_MB it is refused (413 too-large) as soon as
 * that shows (the Content-Length, or the bytes counted), and nothing stays stored.
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import { z } from 'zod';
import { createdJsonSchema, DomainError, PREVIEW_TYPES } from '../../../domain/index';
import { hasDeceptiveCharacter } from '../../../domain/text';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { files } from '../../db/schema/index';
import { ctxOf, rowSchemaOf } from '../../engine/routes';
import { createRow } from '../../engine/write';
import { findRow } from '../../engine/read';
import { IdParams } from '../../engine/params';
import type { Registry } from '../../engine/registry';
import { filesSpec, foldersSpec, type UploadFacts } from './spec';
import { cleanFileName, contentDisposition, SNIFF_BYTES, sniffType } from './sniff';
import { newKey, type FileStore } from './storage';

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

const FolderId = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(2_147_483_647));

const UploadQuery = z.strictObject({ folder_id: FolderId.optional() });

/** The form's parts besides the file: the folder, as most clients send it (or in the query). */
const FORM_FIELDS = new Set(['folder_id']);
/** The file's part is named `file`, as FormData.append('file', …) names it. */
const FILE_FIELD = 'file';
/** RFC 2046: a boundary is 1 to 70 characters. */
const BOUNDARY_RE = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i;

const malformed = (message: string) => new DomainError('validation', message, { file: 'invalid' });

/** What the multipart parser throws about the body itself: the client's mistake, not ours. */
function bodyError(error: unknown, maxBytes: number): DomainError | null {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return new DomainError('validation', 'Send one file per upload.', { file: 'duplicate' });
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return new DomainError('validation', 'The form has too many fields.', { _: 'unknown-field' });
  const message = error instanceof Error ? error.message : '';
  // busboy's words for a cut or garbled body (the client stopped sending, or sent nonsense).
  if (
    /unexpected end of (form|multipart)|malformed|boundary|aborted|premature close/i.test(message) ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE'
  ) {
    return malformed('The multipart body is incomplete or malformed.');
  }
  return null;
}

const ContentQuery = z.strictObject({ inline: z.enum(['0', '1']).optional() });

const unknownField = (name: string) =>
  new DomainError('validation', 'The form has a field the upload does not take.', { [name.slice(0, 64) || '_']: 'unknown-field' });

const tooLarge = (maxBytes: number) =>
  new DomainError('too-large', `A file may be at most ${Math.round(maxBytes / 1024 / 1024)} MB.`, undefined, { details: { max_bytes: maxBytes } });

export const fileRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry; store: FileStore; maxBytes: number }> = async (
  app,
  { database, registry, store, maxBytes },
) => {
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: FORM_FIELDS.size, parts: FORM_FIELDS.size + 1, headerPairs: 50, fieldSize: 64 },
  });
  const row = rowSchemaOf(filesSpec);

  /** Streams one file part to the store, counting, hashing and keeping its head; on any failure nothing stays stored. */
  async function storeFile(part: MultipartFile, tenantId: number) {
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(tooLarge(maxBytes));
        hash.update(chunk);
        if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        done(null, chunk);
      },
      flush(done) {
        // The parser stops at the limit and ends the part: the file is cut, not complete.
        done(part.file.truncated ? tooLarge(maxBytes) : null);
      },
    });
    part.file.on('limit', () => meter.destroy(tooLarge(maxBytes)));
    const key = newKey(tenantId);
    try {
      // pipeline, not pipe: the parser may have destroyed the part already (a body cut short),
      // and only pipeline sees an error that happened before it was called.
      await store.put(
        key,
        pipeline(part.file, meter, (error) => {
          if (error && !meter.destroyed) meter.destroy(error);
        }),
      );
    } catch (error) {
      await store.remove(key).catch(() => undefined);
      if (error instanceof DomainError) throw error;
      if ((error as { statusCode?: number }).statusCode === 413 || part.file.truncated) throw tooLarge(maxBytes);
      throw error;
    }
    return { key, size, head, sha256: hash.digest('hex'), filename: part.filename ?? '' };
  }

  app.post(
    '',
    {
      config: { access: { area: 'files', action: 'create' } },
      schema: {
        tags: ['files'],
        summary: 'Upload one file (multipart/form-data, field `file`) into a folder (`folder_id` as a form field or in the query)',
        querystring: UploadQuery,
        response: { 201: createdJsonSchema(row) },
      },
      // A body announced too large is refused before a byte of it is read.
      preHandler: async (request) => {
        const length = Number(request.headers['content-length']);
        if (Number.isFinite(length) && length > maxBytes + ENVELOPE_BYTES) throw tooLarge(maxBytes);
        if (!request.isMultipart()) throw new DomainError('validation', 'Send the file as multipart/form-data.', { file: 'required' });
        if (!BOUNDARY_RE.test(request.headers['content-type'] ?? '')) throw malformed('The multipart boundary is missing, empty or longer than 70 characters.');
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      let folderId = request.query.folder_id;
      let stored: { key: string; size: number; head: Buffer; sha256: string; filename: string } | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (!FORM_FIELDS.has(part.fieldname)) throw unknownField(part.fieldname);
            if (folderId !== undefined)
              throw new DomainError('validation', 'Give the folder once: as a form field or in the query.', { folder_id: 'duplicate' });
            const parsed = FolderId.safeParse(String(part.value));
            if (!parsed.success) throw new DomainError('validation', 'folder_id must be a folder id.', { folder_id: 'invalid-type' });
            folderId = parsed.data;
            continue;
          }
          if (part.fieldname !== FILE_FIELD) {
            part.file.resume();
            throw unknownField(part.fieldname);
          }
          // Controls are dropped from the name (cleanFileName); a direction override is refused:
          // `invoice‮fdp.exe` would show as a PDF.
          if (hasDeceptiveCharacter(cleanFileName(part.filename ?? ''))) {
            part.file.resume();
            throw new DomainError('validation', 'The file name holds direction-changing characters.', { name: 'invalid-format' });
          }
          stored = await storeFile(part, ctx.tenantId);
        }
      } catch (error) {
        if (stored) await store.remove(stored.key).catch(() => undefined);
        throw bodyError(error, maxBytes) ?? error;
      }
      if (!stored) throw new DomainError('validation', 'No file was sent.', { file: 'required' });
      if (folderId !== undefined) {
        const id = folderId;
        const folder = await withTenant(database, ctx.tenantId, (tx) => findRow(tx, registry, ctx, foldersSpec, id));
        if (!folder) {
          await store.remove(stored.key).catch(() => undefined);
          throw new DomainError('validation', 'A referenced record does not exist.', { folder_id: 'invalid' }, { details: { reason: 'reference-missing' } });
        }
      }
      const { key, size, head, sha256 } = stored;

      const actor = ctx.actor!;
      const upload: UploadFacts = {
        size,
        mime_type: sniffType(head),
        sha256,
        storage_key: key,
        uploaded_by: actor.kind === 'root' ? 'Root' : `${actor.firstName} ${actor.lastName}`.trim() || actor.username,
        uploaded_by_id: actor.kind === 'root' ? null : actor.id,
      };
      const input = { name: cleanFileName(stored.filename), folder_id: folderId ?? null, upload };
      try {
        const data = await withTenant(database, ctx.tenantId, (tx) => createRow(tx, registry, ctx, filesSpec, input));
        return reply.code(201).send({ id: data.id, data });
      } catch (error) {
        await store.remove(key).catch(() => undefined);
        throw error;
      }
    },
  );

  app.get(
    '/:id/content',
    {
      config: { access: { area: 'files', action: 'read' } },
      schema: {
        tags: ['files'],
        summary: "A file's bytes: a download, or with inline=1 a preview of an image or PDF",
        params: IdParams,
        querystring: ContentQuery,
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const [file] = await withTenant(database, ctx.tenantId, (tx) =>
        tx
          .select({ name: files.name, size: files.size, mimeType: files.mimeType, sha256: files.sha256, key: files.storageKey })
          .from(files)
          .where(and(eq(files.tenantId, ctx.tenantId), eq(files.id, request.params.id))),
      );
      if (!file) throw new DomainError('not-found');
      const body = await store.get(file.key);
      if (!body) throw new DomainError('not-found', 'The bytes of this file are missing from the storage.');
      const inline = request.query.inline === '1' && PREVIEW_TYPES.includes(file.mimeType);
      return (
        reply
          .header('content-type', file.mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : file.mimeType)
          .header('content-length', String(file.size))
          .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name))
          .header('x-content-type-options', 'nosniff')
          // Whatever the bytes are, they never run as the app's origin (no scripts, no same-origin access).
          .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'")
          .header('cache-control', 'private, no-cache')
          .header('etag', `"${file.sha256}"`)
          .send(body)
      );
    },
  );
};
