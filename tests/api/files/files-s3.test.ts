// The files suite again, on an S3-compatible store: a real s3rver started here on a free port,
// reached through the AWS SDK exactly as a bucket would be (S3_BUCKET, S3_ENDPOINT, path style).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import { DATABASE_KINDS } from '../support/harness';
import { filesSuite } from '../support/files-suite';

let server: S3rver;
let directory: string;
let endpoint: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'frontis-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: DATABASE_KINDS.map((kind) => ({ name: `frontis-${kind}` })),
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

filesSuite('S3', (kind) => ({
  s3: { bucket: `frontis-${kind}`, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
}));
