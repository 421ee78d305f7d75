import { useCallback, useEffect, useState, type ReactNode, type RefObject } from 'react';
import { assertNever } from '../../../../shared/assert-never.js';
import { plural } from '../../lib/format.js';
import { isTypingTarget } from '../../lib/use-list-navigation.js';
import { Button } from '../button.js';
import type { DiffTableRow } from './diff-rows.js';

/** Whether a row shows a changed line (an addition or a deletion on either side). */
function isChange(row: DiffTableRow): boolean {
  switch (row.kind) {
    case 'gap':
      return false;
    case 'unified':
      return row.line.kind !== 'context';
    case 'split':
      return (row.row.left?.kind ?? 'context') !== 'context' || (row.row.right?.kind ?? 'context') !== 'context';
    default:
      return assertNever(row);
  }
}

/** The index of each change's first row: where a run of changed rows begins. */
export function changeStarts(rows: readonly DiffTableRow[]): number[] {
  return rows.flatMap((row, index) => (isChange(row) && (index === 0 || !isChange(rows[index - 1]!)) ? [index] : []));
}

/**
 * Brings the table row numbered `index` (`data-index`) into view and focuses it. A virtualised table
 * draws it only once scrolled to, a frame or two later: it is looked for again until then.
 */
function focusRow(frame: HTMLElement | null, index: number, framesLeft = 20): void {
  const row = frame?.querySelector<HTMLTableRowElement>(`tr[data-index="${index}"]`);
  if (!row) {
    if (framesLeft > 0) requestAnimationFrame(() => focusRow(frame, index, framesLeft - 1));
    return;
  }
  row.tabIndex = -1;
  row.scrollIntoView({ block: 'center' });
  row.focus({ preventScroll: true });
}

/**
 * `]` and `[` move to the next and previous change of the diff in `frame` (focus and scroll), as
 * Previous change and Next change do. `reveal` asks a virtualised table to scroll a row into its drawn
 * range. Keys are ignored in text fields and while a dialog the diff is not in is open.
 */
export function useChangeNavigation(
  starts: readonly number[],
  frame: RefObject<HTMLElement | null>,
  reveal: (index: number) => void,
): { readonly current: number; readonly go: (by: 1 | -1) => void } {
  // Which change (0 for the first) was moved to last: its ordinal survives unfolding a gap and a new layout.
  const [current, setCurrent] = useState(-1);
  const go = useCallback(
    (by: 1 | -1) => {
      if (starts.length === 0) return;
      const next = Math.min(starts.length - 1, Math.max(0, current + by));
      setCurrent(next);
      reveal(starts[next]!);
      focusRow(frame.current, starts[next]!);
    },
    [starts, current, frame, reveal],
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if ((event.key !== ']' && event.key !== '[') || event.ctrlKey || event.metaKey) return;
      if (isTypingTarget(event.target) || event.defaultPrevented) return;
      const dialog = document.querySelector('dialog[open]');
      if (dialog && !dialog.contains(frame.current)) return;
      event.preventDefault();
      go(event.key === ']' ? 1 : -1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, frame]);
  return { current, go };
}

/**
 * Where the diff's change navigation stands, Previous / Next change (when there are changes), Expand
 * all while lines are folded, then `children` (the diff's options).
 */
export function DiffNavBar({
  changes,
  current,
  onGo,
  folded,
  onExpandAll,
  label,
  children,
}: {
  readonly changes: number;
  readonly current: number;
  readonly onGo: (by: 1 | -1) => void;
  /** Whether unchanged lines are folded away. */
  readonly folded: boolean;
  readonly onExpandAll: () => void;
  /** The diff's name: a screen reader tells two diffs' counts apart by it ("1 change in Diff of a.md"). */
  readonly label?: string;
  readonly children?: ReactNode;
}) {
  return (
    <div className="changes-diff-header diff-nav" data-testid="diff-nav">
      <span className="muted" role="status">
        {changes === 0
          ? 'No changes shown'
          : current >= 0
            ? `Change ${current + 1} of ${changes}`
            : plural(changes, 'change')}
        {label && <span className="visually-hidden">{` in ${label}`}</span>}
      </span>
      <span className="chip-row">
        {changes > 0 && (
          <>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onGo(-1)}
              disabled={current <= 0}
              title="Previous change ([)"
            >
              Previous change
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onGo(1)}
              disabled={current >= changes - 1}
              title="Next change (])"
            >
              Next change
            </Button>
          </>
        )}
        {folded && (
          <Button size="sm" variant="ghost" onClick={onExpandAll} title="Show every unchanged line">
            Expand all
          </Button>
        )}
        {children}
      </span>
    </div>
  );
}
