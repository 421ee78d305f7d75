import { describe, expect, it } from 'vitest';
import { RecordArena } from '../../../src/server/gateway/traffic/record-arena.js';

describe('record arena', () => {
  it('gives back each record as it was stored, newest first, up to its capacity', () => {
    const arena = new RecordArena(3);
    const texts = (n: number) => [`{"n":${n}}`, 'héllo wörld ✓ 😀'.repeat(n), ''];
    for (let n = 1; n <= 5; n += 1) arena.push(n, texts(n));
    expect(arena.size).toBe(3);
    expect(arena.newest(10)).toEqual([
      { seq: 5, texts: texts(5) },
      { seq: 4, texts: texts(4) },
      { seq: 3, texts: texts(3) },
    ]);
    expect(arena.newest(1).map((r) => r.seq)).toEqual([5]);
    expect(arena.newest(10, 3).map((r) => r.seq)).toEqual([5, 4]);
  });

  it('keeps lone surrogates as replacement characters rather than corrupting the next record', () => {
    const arena = new RecordArena(2);
    arena.push(1, ['\ud800 broken', 'next']);
    arena.push(2, ['after']);
    expect(arena.newest(2)).toEqual([
      { seq: 2, texts: ['after'] },
      { seq: 1, texts: ['\ufffd broken', 'next'] },
    ]);
  });

  it('bounds its memory by the records it holds, reusing pages as old records go', () => {
    const arena = new RecordArena(100);
    const body = 'x'.repeat(10_000);
    for (let n = 1; n <= 5_000; n += 1) arena.push(n, [String(n), body]);
    // 100 records of ~10 KB fit in two 1 MiB pages; the one being filled and a spare make at most four.
    expect(arena.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(arena.newest(100).every((r, i) => r.seq === 5_000 - i && r.texts[1] === body)).toBe(true);
  });

  it('stores a record larger than a page on a page of its own, dropped with it', () => {
    const arena = new RecordArena(2);
    const huge = 'é'.repeat(800_000); // 1.6 MB of UTF-8
    arena.push(1, ['small']);
    arena.push(2, [huge]);
    expect(arena.newest(2).map((r) => r.texts[0]!.length)).toEqual([800_000, 5]);
    arena.push(3, ['a']);
    arena.push(4, ['b']);
    expect(arena.newest(2)).toEqual([
      { seq: 4, texts: ['b'] },
      { seq: 3, texts: ['a'] },
    ]);
    expect(arena.bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
