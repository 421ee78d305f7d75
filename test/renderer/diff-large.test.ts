import { describe, expect, it } from 'vitest';
import { diffAnchored } from '../../src/renderer/src/lib/anchored-diff.js';
import { diffLines, diffStats, toSplitRows } from '../../src/renderer/src/lib/text-diff.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'prompt', 'model', 'token', 'answer', 'store', 'gate'];

/** A markdown-like corpus of about 1 MB: 32,120 numbered lines. */
function corpus(): string[] {
  return Array.from(
    { length: 32_120 },
    (_, i) => `${i + 1}. The ${WORDS[i % 10]} and the ${WORDS[(i * 7) % 10]} of this corpus.`,
  );
}

describe('diffAnchored', () => {
  it('compares between lines unique to both sides when the whole is past the cost limit', () => {
    // 40 changed lines among unique ones: 80 edits, far past a limit of 10, yet each stretch between
    // unchanged lines is one edit pair.
    const a = Array.from({ length: 400 }, (_, i) => `line ${i}`);
    const b = a.map((line, i) => (i % 10 === 0 ? `${line} changed` : line));
    const runs = diffAnchored(a, b, 10);
    expect(runs.some((run) => run.uncompared)).toBe(false);
    const changed = runs.filter((run) => run.type === 'delete').reduce((sum, run) => sum + run.aEnd - run.aStart, 0);
    expect(changed).toBe(40);
  });
});

describe('a diff of a 1 MB document with every 10th line changed', () => {
  const before = corpus();
  const after = before.map((line, i) => (i % 10 === 0 ? `${line} CHANGED` : line));
  const beforeText = `${before.join('\n')}\n`;
  const afterText = `${after.join('\n')}\n`;

  it('finds exactly the 3,212 changed lines', () => {
    expect(beforeText.length).toBeGreaterThan(1_000_000);
    const lines = diffLines(beforeText, afterText);
    expect(diffStats(lines)).toEqual({ added: 3212, deleted: 3212, uncompared: 0 });
    expect(lines.filter((line) => line.kind === 'context')).toHaveLength(32_120 - 3212);
    // Each changed line sits beside its new version, the appended word the highlighted part.
    const rows = toSplitRows(lines).filter((row) => row.left?.kind === 'del');
    expect(rows).toHaveLength(3212);
    expect(rows.every((row) => row.right?.kind === 'add' && row.right.newNo === row.left!.oldNo)).toBe(true);
    expect(rows[3211]!.right!.segments?.filter((segment) => segment.changed).map((segment) => segment.text)).toEqual([
      ' CHANGED',
    ]);
  });

  it('still finds them when lines are repeated around the changes', () => {
    // Blank lines and a repeated heading between the numbered lines: only the numbered ones are unique.
    const spaced = (lines: readonly string[]) => lines.flatMap((line) => [line, '', '## Section', '']).join('\n');
    const lines = diffLines(spaced(before.slice(0, 11_000)), spaced(after.slice(0, 11_000)));
    expect(diffStats(lines)).toEqual({ added: 1100, deleted: 1100, uncompared: 0 });
  });
});

describe('a stretch too large to compare line by line', () => {
  // Nothing unique to anchor on and thousands of edits: past the cost limit.
  const before = Array.from({ length: 32_120 }, (_, i) => (i % 2 ? '' : '- item'));
  const after = before.map((line, i) => (i % 10 === 0 ? `${line} CHANGED` : line));

  it('is shown as replaced, marked, without word pairing, and not counted as added or deleted', () => {
    const lines = diffLines(before.join('\n'), after.join('\n'));
    const stats = diffStats(lines);
    expect(stats.added + stats.deleted).toBeLessThan(10);
    expect(stats.uncompared).toBeGreaterThan(60_000);
    const uncompared = lines.filter((line) => line.uncompared);
    expect(uncompared.every((line) => line.kind !== 'context' && line.segments === undefined)).toBe(true);
  });

  it('leaves small diffs unmarked', () => {
    expect(diffLines('a\nb\n', 'a\nc\n').some((line) => 'uncompared' in line)).toBe(false);
  });
});

describe('hiding whitespace changes', () => {
  it('shows lines that differ only in whitespace as unchanged, each side with its own text', () => {
    const before = 'name: app\nrole:  helpful  assistant\nport: 80\n';
    const after = 'name: app\r\nrole: helpful assistant   \nport: 81\n';
    const lines = diffLines(before, after, { ignoreWhitespace: true });
    expect(lines.map((line) => line.kind)).toEqual(['context', 'context', 'del', 'add']);
    expect(lines[1]).toMatchObject({ text: 'role: helpful assistant   ', oldText: 'role:  helpful  assistant' });
    const [, row] = toSplitRows(lines);
    expect([row!.left!.text, row!.right!.text]).toEqual(['role:  helpful  assistant', 'role: helpful assistant   ']);
    // Shown, the same change is three changed lines.
    expect(diffStats(diffLines(before, after))).toMatchObject({ added: 3, deleted: 3 });
  });

  it('finds no change in a document whose only change is whitespace', () => {
    const lines = diffLines('a b\n\tc\n', 'a  b\n    c', { ignoreWhitespace: true });
    expect(diffStats(lines)).toEqual({ added: 0, deleted: 0, uncompared: 0 });
  });
});
