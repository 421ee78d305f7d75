import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { diffLines, diffStats, foldContext, splitLines, type DiffLine } from '../../lib/text-diff.js';
import { useHideWhitespace, type DiffMode } from '../../lib/diff-mode.js';
import { plural } from '../../lib/format.js';
import { useElementWidth } from '../../lib/use-element-width.js';
import { changeStarts, DiffNavBar, useChangeNavigation } from './diff-change-nav.js';
import { DiffRow } from './diff-row.js';
import { diffTableRows, type DiffTableRow } from './diff-rows.js';
import { HideWhitespaceToggle } from './hide-whitespace-toggle.js';
import { isLargeDiff, LargeDiffGate } from './large-diff-gate.js';
import { VirtualTableBody, type RowPlace } from './virtual-table-body.js';
import { VisibleText } from './visible-text.js';

/** The narrowest pane a side-by-side diff fits in (the `min-width` of `.diff-split` in store.css). */
const SPLIT_MIN_WIDTH = 440;

/** Rows rendered before "show everything": a 1 MB document should not freeze the window. */
const RENDER_LIMIT = 3000;

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
 * `label` names the table ("Diff of config/app.json"). A large change ({@link isLargeDiff}) waits for
 * Load diff. Memoised (its props are strings): a screen drawn again by its polls leaves the diff alone.
 */
export const DiffView = memo(function DiffView({
  before,
  after,
  mode,
  label,
}: {
  readonly before: string | undefined;
  readonly after: string | undefined;
  readonly mode: DiffMode;
  readonly label: string;
}) {
  const hideWhitespace = useHideWhitespace();
  const lines = useMemo(
    () => diffLines(before, after, { ignoreWhitespace: hideWhitespace }),
    [before, after, hideWhitespace],
  );
  const stats = useMemo(() => diffStats(lines), [lines]);
  const [loaded, setLoaded] = useState(false);
  const load = useCallback(() => setLoaded(true), []);

  if (lines.length === 0) {
    return <div className="diff-note">{after === '' || before === '' ? 'The document is empty.' : 'No changes.'}</div>;
  }
  const changed = stats.added + stats.deleted + stats.uncompared;
  if (!loaded && isLargeDiff(changed)) return <LargeDiffGate changed={changed} onLoad={load} />;
  return (
    <DiffTable lines={lines} mode={mode} label={label} focusOnShow={loaded}>
      {hideWhitespace && changed === 0 && before !== after && (
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
    </DiffTable>
  );
});

/**
 * The rows of a diff table. Memoised apart from the table: moving from change to change redraws the
 * navigation's status, not thousands of rows (a virtualised body, asked to `reveal` a row, draws the
 * few in view).
 */
const DiffTableBody = memo(function DiffTableBody({
  rows,
  lines,
  drawn,
  virtual,
  frame,
  reveal,
  onExpand,
}: {
  readonly rows: readonly DiffTableRow[];
  readonly lines: readonly DiffLine[];
  /** How many rows a table that is not virtualised draws (fewer than `rows` while cut). */
  readonly drawn: number;
  readonly virtual: boolean;
  readonly frame: RefObject<HTMLDivElement | null>;
  readonly reveal: { readonly index: number } | undefined;
  readonly onExpand: (start: number) => void;
}) {
  const renderRow = useCallback(
    (index: number, place: RowPlace = { 'data-index': index }) => (
      <DiffRow key={index} row={rows[index]!} lines={lines} onExpand={onExpand} place={place} />
    ),
    [rows, lines, onExpand],
  );
  if (virtual)
    return <VirtualTableBody count={rows.length} columns={4} scroller={frame} renderRow={renderRow} reveal={reveal} />;
  return <tbody>{Array.from({ length: drawn }, (_, index) => renderRow(index))}</tbody>;
});

/**
 * The navigation bar, `children` (notes on the diff), table and Show all of a diff's `lines`;
 * `focusOnShow` focuses the table once drawn.
 */
function DiffTable({
  lines,
  mode: chosen,
  label,
  focusOnShow,
  children,
}: {
  readonly lines: readonly DiffLine[];
  readonly mode: DiffMode;
  readonly label: string;
  readonly focusOnShow: boolean;
  readonly children: ReactNode;
}) {
  // Side by side needs room for words in both columns; a narrower pane shows it unified (as GitHub
  // Desktop does), rather than cutting the After column off, until it is wide enough again.
  const [frame, width] = useElementWidth<HTMLDivElement>(Number.MAX_SAFE_INTEGER);
  const narrow = chosen === 'split' && width < SPLIT_MIN_WIDTH;
  const mode: DiffMode = narrow ? 'unified' : chosen;
  const hunks = useMemo(() => foldContext(lines), [lines]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const expandGap = useCallback((start: number) => setExpanded((before) => new Set(before).add(start)), []);

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
  // Load diff goes away as the table comes: focus goes on to it rather than to the page.
  const table = useRef<HTMLTableElement>(null);
  useEffect(() => {
    if (focusOnShow) table.current?.focus({ preventScroll: true });
  }, [focusOnShow]);

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
      {children}
      <div className="diff-scroll" ref={frame}>
        {narrow && (
          <div className="diff-note" role="note">
            Shown unified: this pane is too narrow for side by side.
          </div>
        )}
        <table
          ref={table}
          tabIndex={focusOnShow ? -1 : undefined}
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
          <DiffTableBody
            rows={rows}
            lines={lines}
            drawn={cut ? RENDER_LIMIT : rows.length}
            virtual={virtual}
            frame={frame}
            reveal={virtual ? reveal : undefined}
            onExpand={expandGap}
          />
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

/**
 * Plain content with line numbers (state browser, created documents outside a diff); `label` names the
 * table. Memoised (its props are strings), as {@link DiffView} is.
 */
export const ContentView = memo(function ContentView({
  content,
  label,
}: {
  readonly content: string;
  readonly label: string;
}) {
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
});
