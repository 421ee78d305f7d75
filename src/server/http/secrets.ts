import { timingSafeEqual, createHash } from 'node:crypto';

/** Reads the bearer value of an `Authorization` header, or undefined when absent or malformed. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Why an Authorization header that is present gave no bearer value, as a clause for a "missing"
 * message (empty when there is no header). It names the scheme only: a header of one word may be the
 * secret itself, sent without a scheme, and is never echoed.
 */
export function notBearerHint(header: string | string[] | undefined): string {
  if (header === undefined) return '';
  if (Array.isArray(header)) return ' (Authorization is sent more than once)';
  const words = header.trim().split(/\s+/);
  if (words[0] === '') return ' (Authorization is empty)';
  if (/^Bearer$/i.test(words[0]!)) return ' (Authorization has no token after Bearer)';
  if (words.length > 1 && /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(words[0]!))
    return ` (Authorization holds a ${words[0]} credential, not a Bearer token)`;
  return ' (Authorization has no scheme: put Bearer before the token)';
}

/** Compares two secrets in constant time (hashing first so lengths never leak). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
