import { useCallback, useMemo, useRef, useState } from 'react';
import { diffLines, diffStats, foldContext, splitLines, type DiffLine, type Hunk } from '../../lib/text-diff.js';
import { useHideWhitespace, type DiffMode } from '../../lib/diff-mode.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { plural } from '../../lib/format.js';
import { useElementWidth } from '../../lib/use-element-width.js';

/** The narrowest pane a side-by-side diff fits in (the `min-width` of `.diff-split` in store.css). */
const SPLIT_MIN_WIDTH = 440;
import { changeStarts, DiffNavBar, useChangeNavigation } from './diff-change-nav.js';
import { SplitRow, UnifiedRow } from './diff-line-text.js';
import { diffTableRows } from './diff-rows.js';
import { HideWhitespaceToggle } from './hide-whitespace-toggle.js';
import { VirtualTableBody, type RowPlace } from './virtual-table-body.js';
import { VisibleText } from './visible-text.js';

/** Rows rendered before "show everything": a 1 MB document should not freeze the window. */
const RENDER_LIMIT = 3000;

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
  columns,
  onExpand,
  place,
}: {
  readonly lines: readonly DiffLine[];
  readonly hunk: Hunk;
  readonly columns: number;
  readonly onExpand: () => void;
  readonly place?: RowPlace;
}) {
  const folded = lines.slice(hunk.start, hunk.end);
  const newRange = lineRange(folded, (line) => line.newNo);
  const oldRange = lineRange(folded, (line) => line.oldNo);
  const count = plural(folded.length, 'unchanged line');
  return (
    <tr className="diff-gap" {...place}>
      <td colSpan={columns}>
        <button
          type="button"
          className="diff-gap-button"
          onClick={onExpand}
          title={newRange === oldRange ? count : `${count} (${oldRange} before)`}
        >
          Show {newRange}
        </button>
      </td>
    </tr>
  );
}

/**
 * Column names for assistive technology and scripts (`getByRole('columnheader')`, a cell read by its
 * column); the row takes no room on screen.
 */
function HiddenHeader({ names }: { readonly names: readonly string[] }) {
  return (
    <thead className="diff-head">
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            <span className="visually-hidden">{name}</span>
          </th>
        ))}
      </tr>
    </thead>
  );
}

const SPLIT_HEADERS = ['Old line', 'Before', 'New line', 'After'];
const UNIFIED_HEADERS = ['Old line', 'New line', 'Change', 'Text'];

/**
 * A line diff of two versions of one document, side by side or unified, with changed words
 * highlighted and long unchanged stretches folded. `before` undefined: created; `after` undefined: deleted.
 * `label` names the table ("Diff of config/app.json").
 */
export function DiffView({
  before,
  after,
  mode: chosen,
  label,
}: {
  readonly before: string | undefined;
  readonly after: string | undefined;
  readonly mode: DiffMode;
  readonly label: string;
}) {
  // Side by side needs room for words in both columns; a narrower pane shows it unified (as GitHub
  // Desktop does), rather than cutting the After column off, until it is wide enough again.
  const [frame, width] = useElementWidth<HTMLDivElement>(Number.MAX_SAFE_INTEGER);
  const narrow = chosen === 'split' && width < SPLIT_MIN_WIDTH;
  const mode: DiffMode = narrow ? 'unified' : chosen;
  const hideWhitespace = useHideWhitespace();
  const lines = useMemo(
    () => diffLines(before, after, { ignoreWhitespace: hideWhitespace }),
    [before, after, hideWhitespace],
  );
  const stats = useMemo(() => diffStats(lines), [lines]);
  const hunks = useMemo(() => foldContext(lines), [lines]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState(false);

  const rows = useMemo(() => diffTableRows(lines, hunks, expanded, mode), [lines, hunks, expanded, mode]);
  const cut = !showAll && rows.length > RENDER_LIMIT;
  // Past the limit, "Show all" renders only the rows in view: tens of thousands of rows at once would
  // freeze the window.
  const virtual = showAll && rows.length > RENDER_LIMIT;
  // Only the changes drawn: past the limit, the rest wait for Show all.
  const starts = useMemo(() => changeStarts(rows).filter((index) => !cut || index < RENDER_LIMIT), [rows, cut]);
  const [reveal, setReveal] = useState<{ readonly index: number }>();
  const revealRow = useCallback((index: number) => setReveal({ index }), []);
  const nav = useChangeNavigation(starts, frame, revealRow);
  const folded = rows.some((row) => row.kind === 'gap');
  const expandAll = (): void =>
    setExpanded(new Set(hunks.filter((hunk) => hunk.kind === 'gap').map((hunk) => hunk.start)));

  if (lines.length === 0) {
    return <div className="diff-note">{after === '' || before === '' ? 'The document is empty.' : 'No changes.'}</div>;
  }
  const renderRow = (index: number, place: RowPlace = { 'data-index': index }) => {
    const row = rows[index]!;
    switch (row.kind) {
      case 'gap':
        return (
          <GapRow
            key={index}
            lines={lines}
            hunk={row.hunk}
            columns={4}
            onExpand={() => setExpanded(new Set(expanded).add(row.hunk.start))}
            place={place}
          />
        );
      case 'unified':
        return <UnifiedRow key={index} line={row.line} place={place} />;
      case 'split':
        return <SplitRow key={index} left={row.row.left} right={row.row.right} place={place} />;
      default:
        return assertNever(row);
    }
  };
  // What the button promises is what it adds: rows of this layout (a side-by-side row holds a
  // deleted line and the added one beside it), not the unified diff's lines.
  const lineRows = rows.reduce((count, row) => (row.kind === 'gap' ? count : count + 1), 0);
  return (
    <>
      <DiffNavBar
        changes={starts.length}
        current={nav.current}
        onGo={nav.go}
        folded={folded}
        onExpandAll={expandAll}
        label={label}
      >
        <HideWhitespaceToggle />
      </DiffNavBar>
      {hideWhitespace && stats.added + stats.deleted + stats.uncompared === 0 && before !== after && (
        <div className="diff-note" role="note">
          Only whitespace changed in this document (hidden: Hide whitespace changes is on).
        </div>
      )}
      {stats.uncompared > 0 && (
        <div className="diff-note" role="note" data-testid="diff-uncompared">
          Part of this diff is too large to compare line by line: shown as replaced. Its{' '}
          {plural(stats.uncompared, 'line')} are not counted as added or deleted.
        </div>
      )}
      <div className="diff-scroll" ref={frame}>
        {narrow && (
          <div className="diff-note" role="note">
            Shown unified: this pane is too narrow for side by side.
          </div>
        )}
        <table
          className={`diff-table diff-${mode}`}
          aria-label={label}
          aria-rowcount={virtual ? rows.length + 1 : undefined}
          data-testid="diff-view"
          data-mode={mode}
          data-virtual={virtual || undefined}
        >
          {mode === 'split' ? (
            <colgroup>
              <col className="diff-col-ln" />
              <col />
              <col className="diff-col-ln" />
              <col />
            </colgroup>
          ) : (
            <colgroup>
              <col className="diff-col-ln" />
              <col className="diff-col-ln" />
              <col className="diff-col-sign" />
              <col />
            </colgroup>
          )}
          <HiddenHeader names={mode === 'split' ? SPLIT_HEADERS : UNIFIED_HEADERS} />
          {virtual ? (
            <VirtualTableBody count={rows.length} columns={4} scroller={frame} renderRow={renderRow} reveal={reveal} />
          ) : (
            <tbody>{Array.from({ length: cut ? RENDER_LIMIT : rows.length }, (_, index) => renderRow(index))}</tbody>
          )}
        </table>
        {cut && (
          <button type="button" className="diff-gap-button diff-more" onClick={() => setShowAll(true)}>
            Show all {plural(lineRows, mode === 'split' ? 'row' : 'line')}
          </button>
        )}
      </div>
    </>
  );
}

/** Plain content with line numbers (state browser, created documents outside a diff); `label` names the table. */
export function ContentView({ content, label }: { readonly content: string; readonly label: string }) {
  const lines = useMemo(() => splitLines(content), [content]);
  const [showAll, setShowAll] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  if (lines.length === 0) return <div className="diff-note">The document is empty.</div>;
  const cut = !showAll && lines.length > RENDER_LIMIT;
  const virtual = showAll && lines.length > RENDER_LIMIT;
  const renderRow = (index: number, place?: RowPlace) => (
    <tr key={index} className="diff-row" {...place}>
      <td className="diff-ln">{index + 1}</td>
      <td className="diff-code">{lines[index] ? <VisibleText text={lines[index]} /> : null}</td>
    </tr>
  );
  return (
    <div className="diff-scroll" ref={frame}>
      <table
        className="diff-table diff-plain"
        aria-label={label}
        aria-rowcount={virtual ? lines.length + 1 : undefined}
        data-testid="content-view"
        data-virtual={virtual || undefined}
      >
        <colgroup>
          <col className="diff-col-ln" />
          <col />
        </colgroup>
        <HiddenHeader names={['Line', 'Text']} />
        {virtual ? (
          <VirtualTableBody count={lines.length} columns={2} scroller={frame} renderRow={renderRow} />
        ) : (
          <tbody>{Array.from({ length: cut ? RENDER_LIMIT : lines.length }, (_, index) => renderRow(index))}</tbody>
        )}
      </table>
      {cut && (
        <button type="button" className="diff-gap-button diff-more" onClick={() => setShowAll(true)}>
          Show all {plural(lines.length, 'line')}
        </button>
      )}
    </div>
  );
}
