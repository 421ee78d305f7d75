import { randomBytes } from 'node:crypto';

/**
 * An id a provider gave an answer or one of its items (`chatcmpl-…`, `msg_…`, `resp_…`, `call_…`,
 * `toolu_…`): a word, `_` or `-`, then at least three characters (Ollama numbers its `chatcmpl-123`).
 */
const ID_FIELD = /"id":"([A-Za-z]+[_-][A-Za-z0-9_-]{3,})"/g;
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The ids of a kept answer, each with a fresh one of the same prefix and length, for one replay: an
 * answer from the cache is a new answer, and clients and frameworks that log or de-duplicate by id
 * (a Responses id, a chat completion's) would take two calls for one.
 */
export function freshIds(texts: readonly string[]): Map<string, string> {
  const fresh = new Map<string, string>();
  for (const text of texts)
    for (const match of text.matchAll(ID_FIELD)) {
      const id = match[1]!;
      if (fresh.has(id)) continue;
      const prefix = /^[A-Za-z]+[_-]/.exec(id)![0];
      fresh.set(id, prefix + randomText(id.length - prefix.length));
    }
  return fresh;
}

/**
 * `text` with every id of `fresh` replaced, wherever it stands as a JSON string (`"call_1"` as `id`
 * and as the `call_id` that names it): quoted, never inside another string, whose quotes are escaped.
 */
export function withFreshIds(text: string, fresh: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [id, replacement] of fresh) out = out.replaceAll(`"${id}"`, `"${replacement}"`);
  return out;
}

function randomText(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}
