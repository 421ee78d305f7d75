/**
 * Credentials in recorded bodies, found by the names they are stored under rather than a fixed list:
 * clients put keys in free-form fields (`metadata`, tool arguments) under any name, and URLs carry
 * them in their query or user info. The traffic view shows every body through here.
 */

export const REDACTED = '[redacted]';

/** A name's words: split at separators and camelCase humps, lower case (`openaiApiKey` → openai, api, key). */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A last word naming a key: `key` itself or run together with what kind (`apikey`, `privatekey`). */
const KEY_WORD = /^(?:api|private|secret|access|signing|master|session|auth|client|encryption)?key$/;
/** A word naming a credential wherever it stands; `token` only in the singular, at the word's end. */
const CREDENTIAL_WORD = /passw|secret|credential|bearer|authoriz|token$|^(?:auth|pwd|passphrase|cookie)$/;

/**
 * Whether a field of this name holds a credential: its last word names a key (`api_key`,
 * `aws_secret_access_key`, `x-api-key`), or any word names a password, secret, credential, bearer,
 * authorization or token (`session_token`, `passwd`, `client_secret`). Counts are plural and kept:
 * `max_tokens`, `prompt_tokens`, `top_k` are not credentials.
 */
export function isCredentialName(name: string): boolean {
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (last !== undefined && KEY_WORD.test(last)) return true;
  return words.some((word) => CREDENTIAL_WORD.test(word));
}

/** A URL query or fragment parameter that grants access: a credential's name, or a presigned URL's signature. */
function isCredentialParameter(name: string): boolean {
  return isCredentialName(name) || wordsOf(name).some((word) => word === 'sig' || word === 'signature');
}

/** URLs of any scheme, as far as they run in prose or a JSON string. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\`]+/gi;
/** A URL's user info (`user:password@`), before its host. */
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;
/** One `name=value` of a query or fragment (`#access_token=` in OAuth answers). */
const PARAMETER = /([?&#;])([^=&#;]+)=([^&#;]*)/g;

function withoutUrlCredentials(url: string): string {
  return url
    .replace(USER_INFO, `$1${REDACTED}@`)
    .replace(PARAMETER, (whole, separator: string, name: string) =>
      isCredentialParameter(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : whole,
    );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Text with the user info and credential parameters of every URL in it redacted. */
export function redactUrls(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, withoutUrlCredentials) : text;
}

/**
 * A JSON replacer for bodies shown: a string under a credential's name is redacted, and so are
 * credentials in any string's URLs. Numbers (token counts) and objects are kept; an object's own
 * fields are judged by their names.
 */
export function redactCredentials(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return isCredentialName(key) ? REDACTED : redactUrls(value);
}

/**
 * A string field of JSON text (`"name": "value"`), its value up to the closing quote or the end of a
 * cut text: a body kept as text (cut at the limit, an SSE transcript) is never parsed, and must not
 * show what a parsed one would hide.
 */
const STRING_FIELD = /"((?:[^"\\]|\\.){1,200})"(\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/g;

/** JSON text (whole or cut) with credential fields' values and URL credentials redacted. */
export function redactCredentialsInText(text: string): string {
  if (!text.includes('"')) return redactUrls(text);
  const fields = text.replace(STRING_FIELD, (whole, name: string, separator: string) =>
    isCredentialName(name) ? `"${name}"${separator}"${REDACTED}"` : whole,
  );
  return redactUrls(fields);
}
