import { timingSafeEqual, createHash } from 'node:crypto';

/** Reads the bearer value of an `Authorization` header, or undefined when absent or malformed. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Authorization schemes other than Bearer, named when a header uses one (never any other word of it). */
const KNOWN_SCHEMES = new Map(
  ['Basic', 'Digest', 'Token', 'Negotiate', 'NTLM', 'HOBA', 'Mutual', 'AWS4-HMAC-SHA256', 'ApiKey', 'Api-Key'].map(
    (scheme) => [scheme.toLowerCase(), scheme],
  ),
);

/**
 * Why an Authorization header that is present gave no bearer value, as a clause for a "missing"
 * message (empty when there is no header). Of what the header holds it names only a known scheme:
 * any other word may be the secret itself, sent without a scheme, and is never echoed.
 */
export function notBearerHint(header: string | string[] | undefined): string {
  if (header === undefined) return '';
  if (Array.isArray(header)) return ' (Authorization is sent more than once)';
  const words = header.trim().split(/\s+/);
  if (words[0] === '') return ' (Authorization is empty)';
  if (/^Bearer$/i.test(words[0]!))
    return words.length > 2
      ? ' (Authorization has more than one word after Bearer; a token holds no spaces)'
      : ' (Authorization has no token after Bearer)';
  const scheme = words.length > 1 ? KNOWN_SCHEMES.get(words[0]!.toLowerCase()) : undefined;
  if (scheme !== undefined) return ` (Authorization holds a ${scheme} credential, not a Bearer token)`;
  if (words.length > 1) return ' (Authorization uses another scheme than Bearer)';
  return ' (Authorization has no scheme: put Bearer before the token)';
}

/** The 401 message for a request without a bearer value: what to send, and why the header sent was none. */
export function missingBearerMessage(
  credential: string,
  placeholder: string,
  header: string | string[] | undefined,
  generatedFile?: string,
): string {
  const file = generatedFile === undefined ? '' : ` (or ${generatedFileText(generatedFile)})`;
  return `missing ${credential}: send Authorization: Bearer <${placeholder}>${file}${notBearerHint(header)}`;
}

/** Where a secret the server generated is read: a newcomer never set the variable the message names. */
export function generatedFileText(file: string): string {
  return `the content of the ${file} file in the data folder, when the server generated it`;
}

/** Compares two secrets in constant time (hashing first so lengths never leak). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
