import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { aesGcmOpen, aesGcmSeal, aesKeyOf } from './aes-gcm.js';
import { resolveSecret } from './secrets.js';

/** What marks a sealed value; anything else was stored in plain text (by a version before sealing). */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why a sealed value could not be opened: its key file is gone, or it is another one. */
export class SealedValueUnreadable extends Error {
  constructor(
    readonly reason: 'missing' | 'wrong',
    /** The key file. */
    readonly path: string,
  ) {
    super(reason === 'missing' ? `${path} is missing` : `${path} does not open the value`);
  }
}

/**
 * Encrypts secrets kept in the database (AES-256-GCM) with a key kept beside it in the data folder
 * (`secrets.key`, mode 0600): a copy or backup of the database alone does not hand them out. The key
 * file is generated when the first value is sealed, and only then: opening never makes one, since a
 * new key could open nothing sealed before.
 */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly dataDir: string) {}

  /** The file holding the key. */
  get path(): string {
    return join(this.dataDir, 'secrets.key');
  }

  /** True for a value {@link seal} made; false for one stored in plain text. */
  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  /** `enc:v1:<base64 of iv, tag, ciphertext>`, with a fresh random IV. */
  seal(plain: string): string {
    const { iv, tag, body } = aesGcmSeal(this.keyFor('seal'), plain);
    return PREFIX + Buffer.concat([iv, tag, body]).toString('base64');
  }

  /** The plain text of a sealed value (a plain one is returned as it is); SealedValueUnreadable otherwise. */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const plain = aesGcmOpen(this.keyFor('open'), {
      iv: bytes.subarray(0, IV_BYTES),
      tag: bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
      body: bytes.subarray(IV_BYTES + TAG_BYTES),
    });
    if (plain === undefined) throw new SealedValueUnreadable('wrong', this.path);
    return plain;
  }

  private keyFor(use: 'seal' | 'open'): Buffer {
    if (this.key !== undefined) return this.key;
    if (use === 'open' && !existsSync(this.path)) throw new SealedValueUnreadable('missing', this.path);
    const secret = resolveSecret({
      dataDir: this.dataDir,
      file: 'secrets.key',
      prefix: 'secrets-',
      what: 'the key of secrets kept in the database',
    });
    this.key = aesKeyOf(secret.value);
    return this.key;
  }
}
