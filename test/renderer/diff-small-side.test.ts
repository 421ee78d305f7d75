import { describe, expect, it } from 'vitest';
import { diffAnchored } from '../../src/renderer/src/lib/anchored-diff.js';
import { diffLines, diffStats } from '../../src/renderer/src/lib/text-diff.js';

const base = Array.from({ length: 10 }, (_, i) => `line ${i}`);
const appended = Array.from({ length: 2500 }, (_, i) => `appended ${i}`);

/** Changed lines of a diff as `-text` / `+text`, in order. */
const changed = (before: string, after: string): string[] =>
  diffLines(before, after)
    .filter((line) => line.kind !== 'context')
    .map((line) => `${line.kind === 'add' ? '+' : '-'}${line.text}`);

describe('a range where one side is small and the other past the edit limit', () => {
  it('compares 2,500 lines appended to a text without a final newline, as git does', () => {
    // The old last line gains its newline: one line replaced, 2,500 added after it, nothing uncompared.
    const before = base.join('\n');
    const after = [...base, ...appended].join('\n');
    expect(diffStats(diffLines(before, after))).toEqual({ added: 2501, deleted: 1, uncompared: 0 });
    expect(changed(before, after).slice(0, 3)).toEqual(['-line 9', '+line 9', '+appended 0']);
  });

  it('compares an edited line next to 2,500 inserted ones', () => {
    const before = `${base.join('\n')}\n`;
    const after = `${[...base.slice(0, 4), 'edited', ...appended, ...base.slice(5)].join('\n')}\n`;
    expect(diffStats(diffLines(before, after))).toEqual({ added: 2501, deleted: 1, uncompared: 0 });
    expect(changed(before, after).slice(0, 2)).toEqual(['-line 4', '+edited']);
  });

  it('keeps the lines the small side shares with the large one, with nothing unique to anchor on', () => {
    // 5 lines against 3,005, first and last changed: each middle line occurs a thousand times in the
    // new text, so no anchors, and 3,004 edits are past the limit; the minimal diff keeps those 3.
    const a = ['start', 'x', 'y', 'z', 'end'];
    const b = ['START', ...Array.from({ length: 1001 }, () => ['x', 'y', 'z']).flat(), 'END'];
    const runs = diffAnchored(a, b);
    expect(runs.some((run) => run.uncompared)).toBe(false);
    const count = (type: string) =>
      runs
        .filter((run) => run.type === type)
        .reduce((sum, run) => sum + Math.max(run.aEnd - run.aStart, run.bEnd - run.bStart), 0);
    expect([count('equal'), count('delete'), count('insert')]).toEqual([3, 2, 3002]);
    // A valid edit script: the kept lines are equal on both sides, and the runs cover both in order.
    let aAt = 0;
    let bAt = 0;
    for (const run of runs) {
      expect([run.aStart, run.bStart]).toEqual([aAt, bAt]);
      if (run.type === 'equal') expect(a.slice(run.aStart, run.aEnd)).toEqual(b.slice(run.bStart, run.bEnd));
      [aAt, bAt] = [run.aEnd, run.bEnd];
    }
    expect([aAt, bAt]).toEqual([a.length, b.length]);
  });

  it('still marks a large range with nothing to anchor on as too large to compare', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? '' : '- item'));
    const after = before.map((line, i) => (i % 10 === 0 ? `${line} CHANGED` : line));
    expect(diffStats(diffLines(before.join('\n'), after.join('\n'))).uncompared).toBeGreaterThan(30_000);
  });
});
