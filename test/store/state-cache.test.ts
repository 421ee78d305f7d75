import { describe, expect, it } from 'vitest';
import { StateCache } from '../../src/server/store/engine/state-cache.js';

/** A cached state of one document holding `json` (only the JSON's length counts towards the bound). */
const state = (json: string) => ({ json, bytes: json.length, documents: 1 });

/** A cache and a counter of the computations it asked for. */
function counted(maxChars: number) {
  const cache = new StateCache(maxChars);
  let computed = 0;
  const read = (revision: number, chars: number): string =>
    cache.through(1, revision, () => {
      computed += 1;
      return state('x'.repeat(chars));
    }).json;
  return { cache, read, computed: () => computed };
}

describe('state cache', () => {
  it('answers a repeated read from the cache', () => {
    const { read, computed } = counted(100);
    expect(read(1, 10)).toBe('x'.repeat(10));
    expect(read(1, 10)).toBe('x'.repeat(10));
    expect(computed()).toBe(1);
  });

  it('with a bound of 0 keeps nothing and computes every read', () => {
    const { cache, read, computed } = counted(0);
    expect(read(1, 10)).toBe('x'.repeat(10));
    expect(read(1, 10)).toBe('x'.repeat(10));
    expect(computed()).toBe(2);
    expect(cache.chars).toBe(0);
    cache.clear();
  });

  it('keys by namespace and revision', () => {
    const cache = new StateCache(100);
    expect(cache.through(1, 2, () => state('a')).json).toBe('a');
    expect(cache.through(2, 1, () => state('b')).json).toBe('b');
    expect(cache.through(1, 2, () => state('c')).json).toBe('a');
  });

  it('keeps texts up to the character bound and evicts the least recently used past it', () => {
    const { read, computed } = counted(100);
    read(1, 10);
    read(2, 25);
    read(3, 25);
    read(4, 25);
    read(5, 15); // 100 chars: everything fits
    read(1, 10); // 1 is now the most recently used, 2 the least
    expect(computed()).toBe(5);
    read(6, 1); // 101 chars: 2 has to go, nothing else
    expect(computed()).toBe(6);
    for (const revision of [1, 3, 4, 5, 6]) read(revision, 0);
    expect(computed()).toBe(6);
    read(2, 25);
    expect(computed()).toBe(7);
  });

  it('does not keep a text over a quarter of the bound', () => {
    const { read, computed } = counted(100);
    read(1, 25);
    read(1, 25);
    expect(computed()).toBe(1);
    read(2, 26);
    read(2, 26);
    expect(computed()).toBe(3);
  });

  it('never holds more characters than the bound under a mix of sizes', () => {
    const max = 10_000;
    const { cache, read } = counted(max);
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 5000; i += 1) {
      read(random(400), 1 + random(random(10) === 0 ? max / 4 : 300));
      expect(cache.chars).toBeLessThanOrEqual(max);
    }
    expect(cache.chars).toBeGreaterThan(max / 2);
  });

  it('forgets everything on clear', () => {
    const { cache, read, computed } = counted(100);
    read(1, 10);
    cache.clear();
    expect(cache.chars).toBe(0);
    read(1, 10);
    expect(computed()).toBe(2);
  });
});
