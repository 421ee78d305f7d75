import { createHash } from 'node:crypto';

/**
 * Orders strings by their UTF-8 bytes (as Git and SQLite's BINARY collation do). JavaScript compares
 * UTF-16 code units, which disagrees only when a surrogate (a code point above U+FFFF) meets
 * U+E000..U+FFFF; lift surrogates above that range to get code-point, hence UTF-8, order.
 */
export function compareBytewise(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return lift(x) - lift(y);
    return x - y;
  }
  return a.length - b.length;
}

const lift = (unit: number): number => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit);

/** The blob index key of a content: the first 8 bytes of its SHA-256. */
export function contentHash(content: string): Buffer {
  return createHash('sha256').update(content, 'utf8').digest().subarray(0, 8);
}
