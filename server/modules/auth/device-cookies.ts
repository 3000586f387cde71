/**
 * Device cookies: a browser that once signed in successfully as a name gets a signed,
 * long-lived cookie for that name. Sign-in attempts presenting it are counted against that
 * device alone, so a person under attack can still sign in from a known browser while
 * strangers trying the same name are refused.
 *
 * The cookie value is `<nonce>.<signature>`, the signature an HMAC over the name's budget
 * key and the nonce; one cookie per name (its name derived from the key), on path /login.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE_PATH = '/login';
export const DEVICE_COOKIE_DAYS = 365;

/** The budget a name draws on: `root:<name>` for a ROOT name, else `<tenant id>:<name>`. */
export const nameKey = (tenantId: number | null, usernameKey: string) => `${tenantId ?? 'root'}:${usernameKey}`;

/** A key of its own for device cookies, derived from the shared signing key. */
export const deviceKeyOf = (signingKey: Uint8Array) => createHmac('sha256', signingKey).update('frontis device cookies v1').digest();

export const deviceCookieName = (key: string) => `device_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

const sign = (deviceKey: Buffer, key: string, nonce: string) => createHmac('sha256', deviceKey).update(`${key}\n${nonce}`).digest('base64url');

export function newDeviceCookie(deviceKey: Buffer, key: string, nonce = randomBytes(18).toString('base64url')): { value: string; device: string } {
  return { value: `${nonce}.${sign(deviceKey, key, nonce)}`, device: nonce };
}

/** The device id of a cookie that is valid for this name, or null. */
export function deviceOf(deviceKey: Buffer, key: string, value: string | undefined): string | null {
  if (!value || value.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const expected = Buffer.from(sign(deviceKey, key, match[1]!));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1]! : null;
}
