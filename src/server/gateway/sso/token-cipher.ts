import { randomBytes } from 'node:crypto';
import { aesGcmOpen, aesGcmSeal, aesKeyOf } from '../../config/aes-gcm.js';
import { resolveSecret } from '../../config/secrets.js';

const VERSION = 'v1';

/**
 * Encrypts refresh tokens at rest (AES-256-GCM) with a key kept in the data folder (`sso.key`, mode
 * 0600, generated on first use): a copy of the database alone does not hand out the users' sessions.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = aesKeyOf(secret);
  }

  /** The cipher over `<dataDir>/sso.key`. */
  static forDataDir(dataDir: string): TokenCipher {
    return new TokenCipher(
      resolveSecret({ dataDir, file: 'sso.key', prefix: 'sso-', what: 'the key of kept sign-ins' }).value,
    );
  }

  /** A cipher with a random key, for a gateway without providers (nothing it seals outlives the process). */
  static ephemeral(): TokenCipher {
    return new TokenCipher(randomBytes(32).toString('base64url'));
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
  encrypt(plain: string): string {
    const { iv, tag, body } = aesGcmSeal(this.key, plain);
    return [VERSION, ...[iv, tag, body].map((part) => part.toString('base64url'))].join('.');
  }

  /** The plain text, or undefined when the value was not made with this key. */
  decrypt(sealed: string): string | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
    const bytes = (part: string): Buffer => Buffer.from(part, 'base64url');
    return aesGcmOpen(this.key, { iv: bytes(iv), tag: bytes(tag), body: bytes(body) });
  }
}
