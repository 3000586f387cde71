/**
 * Token formats. The access token is a short-lived HS256 JWT naming the session; the refresh
 * token is 256 random bits prefixed with the tenant id (so a token used on the wrong host is
 * told apart from an unknown one) and stored only as its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT, compactVerify } from 'jose';
import type { Database } from '../../db/types';
import { sharedSecret } from '../../db/secrets';

const ISSUER = 'frontis';

export async function loadJwtKey(database: Database): Promise<Uint8Array> {
  const value = await sharedSecret(database, 'jwt-hs256-key', () => randomBytes(64).toString('base64url'));
  return Buffer.from(value, 'base64url');
}

export interface AccessClaims {
  tid: number;
  sid: number;
  sub: string;
}

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number) {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + ttlSeconds;
  const token = await new SignJWT({ tid: claims.tid, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(claims.sub)
    .setIssuedAt(now)
    // A fresh id per token: two tokens issued in the same second must still differ.
    .setJti(randomBytes(9).toString('base64url'))
    .setExpirationTime(exp)
    .sign(key);
  return { token, exp };
}

const asClaims = (p: Record<string, unknown>): AccessClaims | null =>
  Number.isSafeInteger(p.tid) && Number.isSafeInteger(p.sid) && typeof p.sub === 'string' ? { tid: p.tid as number, sid: p.sid as number, sub: p.sub } : null;

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * The HMAC key imported once per key: given raw bytes, jose imports them into WebCrypto on
 * every verification, which cost more than the rest of the check. Keyed by the key itself.
 */
const verifyKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function verifyKeyOf(key: Uint8Array): Promise<CryptoKey> {
  let imported = verifyKeys.get(key);
  if (!imported) {
    imported = crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifyKeys.set(key, imported);
  }
  return imported;
}

/**
 * Tokens whose signature was found good, with their claims and expiry, per key: a browser
 * sends the same token with every request for its lifetime, and checking the HMAC each time
 * cost about a twelfth of a list request's CPU. Only good tokens are kept (a forged one is
 * checked, and refused, every time); expiry is still judged on every use.
 */
const verified = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; exp: number }>>();
const VERIFIED_MAX = 10_000;

export async function verifyAccessToken(key: Uint8Array, token: string): Promise<VerifyResult> {
  if (token.length > 4096) return { ok: false, reason: 'invalid' };
  let known = verified.get(key);
  const hit = known?.get(token);
  if (hit) return hit.exp > Math.floor(Date.now() / 1000) ? { ok: true, claims: hit.claims } : { ok: false, reason: 'expired' };
  try {
    const { payload } = await jwtVerify(token, await verifyKeyOf(key), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      // jose checks `exp` only when present: a token without one would never expire.
      requiredClaims: ['exp', 'iat'],
    });
    const claims = asClaims(payload);
    if (!claims) return { ok: false, reason: 'invalid' };
    if (!known) verified.set(key, (known = new Map()));
    if (known.size >= VERIFIED_MAX) known.clear();
    known.set(token, { claims, exp: payload.exp as number });
    return { ok: true, claims };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** Signature-only check, for sign-out: an expired access token still names the session to end. */
export async function readSignedClaims(key: Uint8Array, token: string): Promise<AccessClaims | null> {
  if (token.length > 4096) return null;
  try {
    const { payload } = await compactVerify(token, key, { algorithms: ['HS256'] });
    return asClaims(JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>);
  } catch {
    return null;
  }
}

export const newPublicId = () => randomBytes(16).toString('base64url');

export const newRefreshToken = (tenantId: number) => `${tenantId}.${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Tenant id inside a refresh token, or null when the token is malformed. */
export function refreshTokenTenant(token: string): number | null {
  const match = /^(\d{1,10})\.[A-Za-z0-9_-]{43}$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}
