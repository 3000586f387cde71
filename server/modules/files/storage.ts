/**
 * Where uploaded files' bytes live: a folder under DATA_DIR (the default) or an S3-compatible
 * bucket (S3_BUCKET and friends). Both take a stream and never hold a whole file in memory;
 * keys are generated (`<tenant id>/<uuid>`), never a user's file name, so no name can reach
 * outside the store or overwrite another file.
 */
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config, S3Config } from '../../config';

export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Stores the stream in full under `key`, or fails and leaves nothing there. */
  put(key: string, body: Readable): Promise<void>;
  /** The stored bytes, or null when there are none under `key`. */
  get(key: string): Promise<Readable | null>;
  /** Removes the bytes under `key`; a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Every key under a tenant's prefix (clean-up and tests). */
  keys(tenantId: number): Promise<string[]>;
}

const KEY_RE = /^\d{1,10}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh key for a tenant's new file. */
export const newKey = (tenantId: number) => `${tenantId}/${randomUUID()}`;

function checked(key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** Files under `<dir>/<tenant id>/<uuid>`, written beside and renamed, so a half-written file never has the key. */
export function diskStore(dir: string): FileStore {
  const path = (key: string) => join(dir, ...checked(key).split('/'));
  return {
    kind: 'disk',
    async put(key, body) {
      const target = path(key);
      await mkdir(join(target, '..'), { recursive: true });
      const partial = `${target}.partial`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      const target = path(key);
      try {
        await stat(target);
      } catch {
        return null;
      }
      return createReadStream(target);
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
    async keys(tenantId) {
      try {
        const names = await readdir(join(dir, String(tenantId)));
        return names.filter((n) => !n.endsWith('.partial')).map((n) => `${tenantId}/${n}`);
      } catch {
        return [];
      }
    },
  };
}

/** Objects in one bucket, uploaded in parts of a few megabytes as the stream arrives. */
export function s3Store(config: S3Config): FileStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
  });
  const Bucket = config.bucket;
  const store: FileStore = {
    kind: 's3',
    async put(key, body) {
      const upload = new Upload({ client, params: { Bucket, Key: checked(key), Body: body }, queueSize: 1 });
      try {
        await upload.done();
      } catch (error) {
        await upload.abort().catch(() => undefined);
        await store.remove(key).catch(() => undefined);
        throw error;
      }
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: checked(key) }));
        return answer.Body instanceof Readable ? answer.Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    async keys(tenantId) {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${tenantId}/`, ContinuationToken: token }));
        for (const item of page.Contents ?? []) if (item.Key) out.push(item.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
  };
  return store;
}

/** The store the configuration names: the bucket when S3_BUCKET is set, else DATA_DIR/files. */
export const openFileStore = (config: Config): FileStore => (config.s3 ? s3Store(config.s3) : diskStore(join(config.dataDir, 'files')));
