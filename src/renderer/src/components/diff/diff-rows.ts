import { toSplitRows, type DiffLine, type Hunk, type SplitRow } from '../../lib/text-diff.js';
import type { DiffMode } from '../../lib/diff-mode.js';

/** One row of a diff table as laid out for its mode: a folded run of unchanged lines, or lines. */
export type DiffTableRow =
  | { readonly kind: 'gap'; readonly hunk: Hunk }
  | { readonly kind: 'unified'; readonly line: DiffLine }
  | { readonly kind: 'split'; readonly row: SplitRow };

/**
 * The rows of a diff table in display order, paired side by side before any cut: a change block lists
 * its deletions before its additions, so cutting the unified lines first would leave a long rewrite's
 * After column empty. Folded gaps not in `expanded` (by their first line) are one row each.
 */
export function diffTableRows(
  lines: readonly DiffLine[],
  hunks: readonly Hunk[],
  expanded: ReadonlySet<number>,
  mode: DiffMode,
): DiffTableRow[] {
  const rows: DiffTableRow[] = [];
  for (const hunk of hunks) {
    if (hunk.kind === 'gap' && !expanded.has(hunk.start)) {
      rows.push({ kind: 'gap', hunk });
      continue;
    }
    const slice = lines.slice(hunk.start, hunk.end);
    if (mode === 'unified') for (const line of slice) rows.push({ kind: 'unified', line });
    else for (const row of toSplitRows(slice)) rows.push({ kind: 'split', row });
  }
  return rows;
}
