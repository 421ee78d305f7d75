/**
 * Removes key-like strings from provider error text before it becomes a message. Providers quote
 * (parts of) the key they were sent — OpenAI's `Incorrect API key provided: sk-WR****-999` — and
 * those messages reach every key holder (502 answers) and the health view, while only the exact
 * configured key is known to the caller. Patterns are compiled once; each keeps ordinary prose intact
 * by asking for the shape of a key (a known prefix, digits or masking, length), not just a word.
 */

/** What replaces a secret (the same marker the exact-key redaction uses). */
export const REDACTED = '[redacted]';

/** OpenAI (`sk-`, `sk-proj-`, `sk-svcacct-`) and Anthropic (`sk-ant-`) keys, masked forms included. */
const SK_KEY = /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_*.-]{3,}/g;
/** Google API keys. */
const GOOGLE_KEY = /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_*-]{8,}/g;
/** AWS access key ids (long-term and temporary). */
const AWS_KEY = /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9*]{8,}(?![A-Za-z0-9])/g;
/**
 * Tokens with a prefix that says what they are: Gatehouse's own keys (`gk-`), GitHub's (`ghp_`,
 * `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`) and Slack's (`xoxb-`, `xoxp-`, ...).
 */
const PREFIXED_TOKEN =
  /(?<![A-Za-z0-9_-])(?:gk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,})/g;
/** JSON Web Tokens (header and payload are base64url JSON, so they start with `eyJ`). */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
/** `Bearer <token>`, as echoed request headers show it. */
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=*-]{8,})/gi;
/**
 * A long value right after a key/token/secret word (`api_key=...`, `token: ...`, `secret "..."`,
 * `key provided: ...`); the value itself must look random (see {@link looksRandom}).
 */
const NAMED_VALUE =
  /(?<![A-Za-z])((?:[A-Za-z]+[_-])?(?:key|token|secret|password|passwd|credential)s?(?![A-Za-z])[^A-Za-z0-9\n]{1,4}(?:(?:provided|given|used|is|was|value)[^A-Za-z0-9\n]{1,4})?)([A-Za-z0-9+/=_*.-]{16,})/gi;

/** Shape of a random token: 32+ hex digits, or 20+ characters mixing letters and digits. */
function looksRandom(value: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(value)) return true;
  return value.length >= 20 && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** Key-like: digits or masking in it, or too long for a word (`sk-learn` stays, `sk-WR****-999` goes). */
function looksLikeKey(value: string): boolean {
  return /[0-9*]/.test(value) || value.length >= 24;
}

/** Trailing sentence punctuation belongs to the prose around a token, not to the token. */
function splitTrailing(value: string): [string, string] {
  const match = /[.-]+$/.exec(value);
  return match ? [value.slice(0, match.index), match[0]] : [value, ''];
}

/** `text` with every key-like string replaced by {@link REDACTED}. */
export function redactSecrets(text: string): string {
  return text
    .replace(SK_KEY, (match) => {
      const [token, tail] = splitTrailing(match);
      return looksLikeKey(token.slice(3)) ? `${REDACTED}${tail}` : match;
    })
    .replace(GOOGLE_KEY, (match) => {
      const [, tail] = splitTrailing(match);
      return `${REDACTED}${tail}`;
    })
    .replace(AWS_KEY, REDACTED)
    .replace(PREFIXED_TOKEN, REDACTED)
    .replace(JWT, REDACTED)
    .replace(BEARER, (match, prefix: string, token: string) => {
      const [value, tail] = splitTrailing(token);
      return /[0-9*]/.test(value) || looksRandom(value) ? `${prefix}${REDACTED}${tail}` : match;
    })
    .replace(NAMED_VALUE, (match, prefix: string, token: string) => {
      const [value, tail] = splitTrailing(token);
      return looksRandom(value) || value.includes('*') ? `${prefix}${REDACTED}${tail}` : match;
    });
}

/** Whether `text` holds a key-like string {@link redactSecrets} would replace. */
export function holdsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
