import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A provider's prefix (`chatcmpl-`, `msg_`, `resp_`, `call_`, `toolu_`), kept so the id still reads as one of its kind. */
const PREFIX = /^[A-Za-z]+[_-]/;

function alphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * A new id in the place of `id`, for one replay: the same prefix and length, every letter and digit
 * after the prefix drawn afresh and any other character kept (a UUID keeps its dashes). An answer
 * from the cache is a new answer, and clients that log or de-duplicate by id would take two calls for one.
 */
export function freshId(id: string): string {
  const start = PREFIX.exec(id)?.[0].length ?? 0;
  const bytes = randomBytes(id.length - start);
  let out = id.slice(0, start);
  for (let index = start; index < id.length; index += 1)
    out += alphanumeric(id.charCodeAt(index)) ? ALPHANUMERIC[bytes[index - start]! % ALPHANUMERIC.length] : id[index];
  return out;
}
