import { memo } from 'react';
import { assertNever } from '../../../../shared/assert-never.js';
import { plural } from '../../lib/format.js';
import type { DiffLine, Hunk } from '../../lib/text-diff.js';
import { SplitRow, UnifiedRow } from './diff-line-text.js';
import type { DiffTableRow } from './diff-rows.js';
import type { RowPlace } from './virtual-table-body.js';

/** "lines 120–208" (or "line 120"): a range of line numbers, as `number` gives each line's. */
function lineRange(lines: readonly DiffLine[], number: (line: DiffLine) => number | undefined): string {
  const first = number(lines[0]!);
  const last = number(lines[lines.length - 1]!);
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

/**
 * A folded run of unchanged lines, named by where they are (the new version's line numbers), so each
 * button of a long diff says which lines it shows.
 */
function GapRow({
  lines,
  hunk,
  onExpand,
  place,
}: {
  readonly lines: readonly DiffLine[];
  readonly hunk: Hunk;
  readonly onExpand: (start: number) => void;
  readonly place?: RowPlace;
}) {
  const folded = lines.slice(hunk.start, hunk.end);
  const newRange = lineRange(folded, (line) => line.newNo);
  const oldRange = lineRange(folded, (line) => line.oldNo);
  const count = plural(folded.length, 'unchanged line');
  return (
    <tr className="diff-gap" {...place}>
      <td colSpan={4}>
        <button
          type="button"
          className="diff-gap-button"
          onClick={() => onExpand(hunk.start)}
          title={newRange === oldRange ? count : `${count} (${oldRange} before)`}
        >
          Show {newRange}
        </button>
      </td>
    </tr>
  );
}

/**
 * Whether two rows show the same lines. The rows are laid out anew when a gap unfolds or the layout
 * changes, the lines they show are not: a row whose lines stayed is not drawn again.
 */
function sameRow(a: DiffTableRow, b: DiffTableRow): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'gap':
      return b.kind === 'gap' && a.hunk === b.hunk;
    case 'unified':
      return b.kind === 'unified' && a.line === b.line;
    case 'split':
      return b.kind === 'split' && a.row.left === b.row.left && a.row.right === b.row.right;
    default:
      return assertNever(a);
  }
}

const samePlace = (a: RowPlace | undefined, b: RowPlace | undefined): boolean =>
  a?.ref === b?.ref && a?.['data-index'] === b?.['data-index'] && a?.['aria-rowindex'] === b?.['aria-rowindex'];

interface DiffRowProps {
  readonly row: DiffTableRow;
  /** The diff's lines, which a folded gap names its range from. */
  readonly lines: readonly DiffLine[];
  /** Unfolds the gap starting at that line (a stable callback, or every row is drawn again). */
  readonly onExpand: (start: number) => void;
  readonly place: RowPlace;
}

/**
 * One row of a diff table. Memoised on what it shows: a diff of thousands of rows re-rendered by its
 * screen (the store poll), by Next change or by a gap unfolding above draws none of its rows again
 * unless their lines changed.
 */
export const DiffRow = memo(
  function DiffRow({ row, lines, onExpand, place }: DiffRowProps) {
    switch (row.kind) {
      case 'gap':
        return <GapRow lines={lines} hunk={row.hunk} onExpand={onExpand} place={place} />;
      case 'unified':
        return <UnifiedRow line={row.line} place={place} />;
      case 'split':
        return <SplitRow left={row.row.left} right={row.row.right} place={place} />;
      default:
        return assertNever(row);
    }
  },
  (a: DiffRowProps, b: DiffRowProps) =>
    sameRow(a.row, b.row) && a.lines === b.lines && a.onExpand === b.onExpand && samePlace(a.place, b.place),
);
