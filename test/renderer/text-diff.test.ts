import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diffAnchored } from '../../src/renderer/src/lib/anchored-diff.js';
import { diffSequences, type DiffRun } from '../../src/renderer/src/lib/myers.js';
import { diffLines, diffWords, foldContext, splitLines, toSplitRows } from '../../src/renderer/src/lib/text-diff.js';

/** Rebuilds `b` from `a` and the runs: the runs must be a valid edit script. */
function apply<T>(a: readonly T[], b: readonly T[], runs: readonly DiffRun[] = diffSequences(a, b)): T[] {
  const out: T[] = [];
  for (const run of runs) {
    if (run.type === 'equal') {
      expect(a.slice(run.aStart, run.aEnd)).toEqual(b.slice(run.bStart, run.bEnd));
      out.push(...a.slice(run.aStart, run.aEnd));
    } else if (run.type === 'insert') out.push(...b.slice(run.bStart, run.bEnd));
  }
  return out;
}

describe('diffSequences', () => {
  it('finds a minimal script for a classic example', () => {
    const a = [...'ABCABBA'];
    const b = [...'CBABAC'];
    const edits = diffSequences(a, b)
      .filter((run) => run.type !== 'equal')
      .reduce((sum, run) => sum + (run.aEnd - run.aStart) + (run.bEnd - run.bStart), 0);
    expect(edits).toBe(5);
    expect(apply(a, b)).toEqual(b);
  });

  it('is a valid edit script for any pair of sequences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 }),
        (a, b) => {
          expect(apply(a, b)).toEqual(b);
        },
      ),
    );
  });

  it('anchored, is a valid edit script for any pair of sequences, with or without a tight cost limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (a, b, maxCost) => {
          expect(apply(a, b, diffAnchored(a, b))).toEqual(b);
          expect(apply(a, b, diffAnchored(a, b, maxCost))).toEqual(b);
        },
      ),
    );
  });

  it('falls back to one delete and one insert beyond the cost limit', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    expect(diffSequences(a, b, 10).map((run) => run.type)).toEqual(['delete', 'insert']);
  });
});

describe('diffLines', () => {
  it('shows a created document as additions only', () => {
    const lines = diffLines(undefined, 'one\ntwo\n');
    expect(lines.map((line) => [line.kind, line.newNo])).toEqual([
      ['add', 1],
      ['add', 2],
    ]);
  });

  it('shows a deleted document as deletions only', () => {
    expect(diffLines('x\ny', undefined).map((line) => line.kind)).toEqual(['del', 'del']);
  });

  it('numbers both sides and highlights the changed word', () => {
    const lines = diffLines('a\nport: 8080\nz\n', 'a\nport: 9090\nz\n');
    expect(lines.map((line) => line.kind)).toEqual(['context', 'del', 'add', 'context']);
    expect(lines[3]).toMatchObject({ oldNo: 3, newNo: 3 });
    expect(lines[1]!.segments).toEqual([
      { text: 'port: ', changed: false },
      { text: '8080', changed: true },
    ]);
    expect(lines[2]!.segments).toEqual([
      { text: 'port: ', changed: false },
      { text: '9090', changed: true },
    ]);
  });

  it('leaves unrelated replacement lines without word highlights', () => {
    const lines = diffLines('completely different', 'nothing alike here');
    expect(lines.every((line) => line.segments === undefined)).toBe(true);
  });
});

describe('diffWords', () => {
  it('splits on words and punctuation', () => {
    const words = diffWords('{"a": 1, "b": 2}', '{"a": 1, "b": 3}')!;
    expect(words.after.filter((s) => s.changed).map((s) => s.text)).toEqual(['3']);
  });
});

describe('layout helpers', () => {
  it('pairs deletions beside additions side by side', () => {
    const rows = toSplitRows(diffLines('a\nb\nc', 'a\nB\nB2\nc'));
    expect(rows.map((row) => [row.left?.text, row.right?.text])).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      [undefined, 'B2'],
      ['c', 'c'],
    ]);
  });

  it('folds long unchanged stretches', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 15', 'line fifteen');
    const hunks = foldContext(diffLines(before, after));
    expect(hunks.map((hunk) => hunk.kind)).toEqual(['gap', 'lines', 'gap']);
  });

  it('does not count a final newline as a line', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
  });
});
