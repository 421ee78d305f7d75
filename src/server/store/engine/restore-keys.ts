import { compareBytewise } from './bytewise.js';
import type { ChangeRow, StoreRepository } from './store-repository.js';

// A restore of named documents (`git checkout <rev> -- <path>`): the whole restore's changes, kept for
// those keys only. A key neither the head nor the source holds has no change, so it writes nothing.

/** Keys shown in full in a revision message before the rest are counted. */
const NAMED_IN_MESSAGE = 3;

const PLAIN_KEY = /^[\p{L}\p{N}._/@+-]+$/u;

/** A key as a JSON string, with the characters that print as nothing or break a line escaped too. */
function quotedKey(key: string): string {
  return JSON.stringify(key).replace(
    /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/** The changes of `changes` that touch one of `keys`; a key never stored touches none. */
export function changesOfKeys(
  repo: StoreRepository,
  changes: readonly ChangeRow[],
  keys: readonly string[],
): ChangeRow[] {
  const ids = new Set(keys.map((key) => repo.keyId(key)).filter((id) => id !== undefined));
  return changes.filter((change) => ids.has(change.keyId));
}

/**
 * The keys as a revision message names them (`prompts/a.md`, `a.md, b.md and 4 more documents`), in
 * byte order and once each. A key with spaces, commas, quotes or invisible characters is quoted as JSON,
 * so the message reads as one line and says where each key ends.
 */
export function keysInMessage(keys: readonly string[]): string {
  const unique = [...new Set(keys)].sort(compareBytewise);
  const named = unique.slice(0, NAMED_IN_MESSAGE).map((key) => (PLAIN_KEY.test(key) ? key : quotedKey(key)));
  const rest = unique.length - named.length;
  return rest === 0 ? named.join(', ') : `${named.join(', ')} and ${rest} more document${rest === 1 ? '' : 's'}`;
}
