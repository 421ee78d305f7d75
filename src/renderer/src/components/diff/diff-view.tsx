import { Fragment, useMemo, useState } from 'react';
import { diffLines, foldContext, splitLines, toSplitRows, type DiffLine, type Hunk } from '../../lib/text-diff.js';
import type { DiffMode } from '../../lib/diff-mode.js';
import { plural } from '../../lib/format.js';
import { useElementWidth } from '../../lib/use-element-width.js';

/** The narrowest pane a side-by-side diff fits in (the `min-width` of `.diff-split` in store.css). */
const SPLIT_MIN_WIDTH = 440;
import { SplitRow, UnifiedRow } from './diff-line-text.js';
import { VisibleText } from './visible-text.js';

/** Rows rendered before "show everything": a 1 MB document should not freeze the window. */
const RENDER_LIMIT = 3000;

function GapRow({
  hunk,
  columns,
  onExpand,
}: {
  readonly hunk: Hunk;
  readonly columns: number;
  readonly onExpand: () => void;
}) {
  return (
    <tr className="diff-gap">
      <td colSpan={columns}>
        <button type="button" className="diff-gap-button" onClick={onExpand}>
          Show {plural(hunk.end - hunk.start, 'unchanged line')}
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

function rowsOf(lines: readonly DiffLine[], mode: DiffMode) {
  if (mode === 'unified') return lines.map((line, index) => <UnifiedRow key={index} line={line} />);
  return toSplitRows(lines).map((row, index) => <SplitRow key={index} left={row.left} right={row.right} />);
}

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
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const hunks = useMemo(() => foldContext(lines), [lines]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState(false);

  if (lines.length === 0) {
    return <div className="diff-note">{after === '' || before === '' ? 'The document is empty.' : 'No changes.'}</div>;
  }
  let budget = showAll ? Infinity : RENDER_LIMIT;
  const body = hunks.map((hunk) => {
    if (budget <= 0) return null;
    if (hunk.kind === 'gap' && !expanded.has(hunk.start)) {
      return (
        <GapRow
          key={hunk.start}
          hunk={hunk}
          columns={4}
          onExpand={() => setExpanded(new Set(expanded).add(hunk.start))}
        />
      );
    }
    const slice = lines.slice(hunk.start, Math.min(hunk.end, hunk.start + budget));
    budget -= slice.length;
    return <Fragment key={hunk.start}>{rowsOf(slice, mode)}</Fragment>;
  });
  return (
    <div className="diff-scroll" ref={frame}>
      {narrow && (
        <div className="diff-note" role="note">
          Shown unified: this pane is too narrow for side by side.
        </div>
      )}
      <table className={`diff-table diff-${mode}`} aria-label={label} data-testid="diff-view" data-mode={mode}>
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
        <tbody>{body}</tbody>
      </table>
      {budget <= 0 && !showAll && (
        <button type="button" className="diff-gap-button diff-more" onClick={() => setShowAll(true)}>
          Show all {plural(lines.length, 'line')}
        </button>
      )}
    </div>
  );
}

/** Plain content with line numbers (state browser, created documents outside a diff); `label` names the table. */
export function ContentView({ content, label }: { readonly content: string; readonly label: string }) {
  const lines = useMemo(() => splitLines(content), [content]);
  const [showAll, setShowAll] = useState(false);
  if (lines.length === 0) return <div className="diff-note">The document is empty.</div>;
  const shown = showAll ? lines : lines.slice(0, RENDER_LIMIT);
  return (
    <div className="diff-scroll">
      <table className="diff-table diff-plain" aria-label={label} data-testid="content-view">
        <colgroup>
          <col className="diff-col-ln" />
          <col />
        </colgroup>
        <HiddenHeader names={['Line', 'Text']} />
        <tbody>
          {shown.map((line, index) => (
            <tr key={index} className="diff-row">
              <td className="diff-ln">{index + 1}</td>
              <td className="diff-code">{line ? <VisibleText text={line} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < lines.length && (
        <button type="button" className="diff-gap-button diff-more" onClick={() => setShowAll(true)}>
          Show all {plural(lines.length, 'line')}
        </button>
      )}
    </div>
  );
}
