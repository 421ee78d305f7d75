import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every issued key starts with this, so passthrough provider keys can be told apart. */
export const KEY_PREFIX = 'gk-';
/** Characters of the secret kept for display (`gk-AbCdEf12…`): enough to recognise, too few to guess. */
const DISPLAY_CHARS = 10;

/** A new secret: the prefix plus 32 random bytes in base64url. */
export function generateKeySecret(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The sha256 of a secret (one-shot `crypto.hash`: no Hash object per request). */
export function digestKeySecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** The stored form of a secret: sha256, hex. */
export function hashKeySecret(secret: string): string {
  return digestKeySecret(secret).toString('hex');
}

/** The displayable beginning of a secret. */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, KEY_PREFIX.length + DISPLAY_CHARS)}…`;
}

/** True when `secret` looks like an issued key (its prefix in any case: never taken for a provider's key). */
export function isIssuedKey(secret: string): boolean {
  return secret.slice(0, KEY_PREFIX.length).toLowerCase() === KEY_PREFIX;
}

/** Compares two digests in constant time. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A short random id for records (`key_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}
