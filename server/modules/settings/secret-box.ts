/**
 * Centre secrets kept encrypted at rest (the myDATA subscription key): AES-256-GCM with a key
 * from `SETTINGS_ENCRYPTION_KEY` (32 bytes, base64) when set, else one created once and shared
 * by every process through the server secrets table, like the session signing key. A stored
 * value reads `v1:<iv>:<tag>:<ciphertext>` (base64 each); it is decrypted only to be sent to AADE.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Database } from '../../db/types';
import { sharedSecret } from '../../db/secrets';

const cache = new WeakMap<Database, Promise<Buffer>>();

export function settingsKey(database: Database): Promise<Buffer> {
  let key = cache.get(database);
  if (!key) {
    key = (async () => {
      const fromEnv = process.env.SETTINGS_ENCRYPTION_KEY;
      const text = fromEnv || (await sharedSecret(database, 'settings-encryption-key', () => randomBytes(32).toString('base64')));
      const bytes = Buffer.from(text, 'base64');
      if (bytes.length !== 32) throw new Error('SETTINGS_ENCRYPTION_KEY must be 32 bytes in base64');
      return bytes;
    })();
    cache.set(database, key);
  }
  return key;
}

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export function open(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}
