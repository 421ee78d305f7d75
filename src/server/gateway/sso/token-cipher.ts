import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { resolveSecret } from '../../config/secrets.js';

const VERSION = 'v1';

/**
 * Encrypts refresh tokens at rest (AES-256-GCM) with a key kept in the data folder (`sso.key`, mode
 * 0600, generated on first use): a copy of the database alone does not hand out the users' sessions.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = hash('sha256', secret, 'buffer');
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
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plain text, or undefined when the value was not made with this key. */
  decrypt(sealed: string): string | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
