import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

/** One AES-256-GCM sealing: its random IV, its authentication tag and the ciphertext. */
export interface Sealed {
  readonly iv: Buffer;
  readonly tag: Buffer;
  readonly body: Buffer;
}

/** The 256-bit key of a secret kept in a key file (any text: it is hashed). */
export const aesKeyOf = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** `plain` sealed with `key` under a fresh random 12-byte IV. */
export function aesGcmSeal(key: Buffer, plain: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

/** The plain text, or undefined when the value was not sealed with `key` (or was altered). */
export function aesGcmOpen(key: Buffer, sealed: Sealed): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
