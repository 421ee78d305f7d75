import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';

/**
 * A key's whole secret as the gateway issues it: `gk-` and 32 random bytes in base64url (43 characters),
 * 46 in all. Shorter text starting with `gk-` is left as typed: it may be a prefix or a key's name.
 */
const WHOLE_SECRET = /^gk-[A-Za-z0-9_-]{43}$/;
/** Characters of a secret the gateway shows as a key's prefix (`gk-` and 10 more, then an ellipsis). */
const SHOWN_CHARS = 13;

const shownPrefix = (key: ApiKeyRecord): string => key.key_prefix.replace(/…$/, '');

/**
 * The part of a key's whole secret that the list shows as its prefix (`gk-AbCdEf1234`), when `filter`
 * is one (surrounding spaces aside); otherwise undefined. A pasted secret is looked up by this and
 * never kept, in the address or anywhere else.
 */
export function secretPrefix(filter: string): string | undefined {
  const text = filter.trim();
  return WHOLE_SECRET.test(text) ? text.slice(0, SHOWN_CHARS) : undefined;
}

/**
 * Whether a key matches what was typed in the Keys screen's filter: any part of its name, id,
 * shown prefix (without its ellipsis), user or team, in any case; a whole secret matches the key whose
 * prefix it starts with. Every key matches an empty filter.
 */
export function keyMatches(key: ApiKeyRecord, filter: string): boolean {
  const text = filter.trim();
  // Only the beginning of a secret is stored; the whole one starts with it.
  if (WHOLE_SECRET.test(text)) return text.startsWith(shownPrefix(key)) && shownPrefix(key).length >= SHOWN_CHARS;
  const needle = text.toLowerCase();
  if (!needle) return true;
  return [key.name, key.id, shownPrefix(key), key.user, key.team].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}
