import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A provider's prefix (`chatcmpl-`, `msg_`, `resp_`, `call_`, `toolu_`), kept so the id still reads as one of its kind. */
const PREFIX = /^[A-Za-z]+[_-]/;
/**
 * Letters and digits an id keeps its shape with: 62^16 (about 2^95) ids, so replays never meet. A
 * shorter id (a local server's `chatcmpl-B8` or `chatcmpl-123`) would repeat within a few dozen hits.
 */
const MIN_RANDOM_CHARS = 16;
/** The letters and digits after the prefix of an id too short to keep its shape, as OpenAI's own ids have about. */
const PADDED_CHARS = 24;

function alphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function randomAlphanumerics(count: number): string {
  const bytes = randomBytes(count);
  let out = '';
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

/** `id`'s shape after `start`: every letter and digit drawn afresh, any other character kept (a UUID keeps its dashes). */
function reshaped(id: string, start: number): string {
  const drawn = randomAlphanumerics(id.length - start);
  let out = id.slice(0, start);
  for (let index = start; index < id.length; index += 1)
    out += alphanumeric(id.charCodeAt(index)) ? drawn[index - start] : id[index];
  return out;
}

/**
 * A new id in the place of `id`, for one replay, never `id` itself: the same prefix, then the same
 * shape with its letters and digits drawn afresh where it has at least MIN_RANDOM_CHARS of them,
 * else PADDED_CHARS new ones. An answer from the cache is a new answer, and clients that log or
 * de-duplicate by id would take two calls for one.
 */
export function freshId(id: string): string {
  const start = PREFIX.exec(id)?.[0].length ?? 0;
  let letters = 0;
  for (let index = start; index < id.length; index += 1) if (alphanumeric(id.charCodeAt(index))) letters += 1;
  if (letters < MIN_RANDOM_CHARS) return id.slice(0, start) + randomAlphanumerics(PADDED_CHARS);
  for (;;) {
    const fresh = reshaped(id, start);
    if (fresh !== id) return fresh;
  }
}
