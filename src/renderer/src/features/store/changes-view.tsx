import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { Change } from '../../../../shared/store-api.js';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { DiffView } from '../../components/diff/diff-view.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { Segmented } from '../../components/segmented.js';
import { VirtualList } from '../../components/virtual-list.js';
import { setDiffMode, toggleDiffMode, useDiffMode, useHideWhitespace, type DiffMode } from '../../lib/diff-mode.js';
import { nameText } from '../../lib/invisible-chars.js';
import { diffLines, diffStats } from '../../lib/text-diff.js';
import { isTypingTarget } from '../../lib/use-list-navigation.js';
import { formatBytes, plural } from '../../lib/format.js';
import { ChangeBadge, ChangeMark, changedDocumentLabel } from './change-badge.js';

const MODES = [
  { value: 'split', label: 'Side by side' },
  { value: 'unified', label: 'Unified' },
] as const satisfies readonly { value: DiffMode; label: string }[];

/** A document's added and deleted lines, as its diff shows them (whitespace hidden or not). */
function Stats({ change }: { readonly change: Change }) {
  const hideWhitespace = useHideWhitespace();
  // diffLines keeps its last results, so the diff view below reuses this one.
  const stats = useMemo(
    () => diffStats(diffLines(change.before, change.after, { ignoreWhitespace: hideWhitespace })),
    [change, hideWhitespace],
  );
  return (
    <span className="diff-stats">
      {stats.added > 0 && <span className="diff-stats-add">+{stats.added}</span>}
      {stats.deleted > 0 && <span className="diff-stats-del">−{stats.deleted}</span>}
      {stats.uncompared > 0 && (
        <span className="muted" title="Too large to compare line by line: shown as replaced">
          ~{stats.uncompared}
        </span>
      )}
    </span>
  );
}

/** The "u" shortcut toggles the diff layout while a diff is on screen. */
function onDiffModeKey(event: KeyboardEvent): void {
  if (event.key !== 'u' || isTypingTarget(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
  toggleDiffMode();
}

/** Views showing now: one listener for all of them, since the mode is shared (two would toggle twice). */
let diffViewsShown = 0;

function useDiffModeShortcut(): void {
  useEffect(() => {
    if (diffViewsShown++ === 0) window.addEventListener('keydown', onDiffModeKey);
    return () => {
      if (--diffViewsShown === 0) window.removeEventListener('keydown', onDiffModeKey);
    };
  }, []);
}

/**
 * A set of document changes: the changed keys on the left (keyboard driven), the selected one's
 * diff on the right, side by side or unified. On a screen (`linked`) the selected document is the
 * address's `key=`, so a link or a reload opens the same diff; one the changes lack shows the first.
 */
export function ChangesView({
  changes,
  emptyText = 'No documents changed.',
  autoFocus = false,
  onEscape,
  linked = false,
  preferredKey,
  omitted,
}: {
  readonly changes: readonly Change[];
  readonly emptyText?: string;
  readonly autoFocus?: boolean | number;
  readonly onEscape?: () => void;
  readonly linked?: boolean;
  /** The document shown first when the address names none (a document's history shows that document). */
  readonly preferredKey?: string;
  /**
   * Set when the changes came without their contents (read keys-only, or past the store's response
   * limit): the diff pane of a change, which reads its contents when shown (a {@link LazyChangeDiff}),
   * never a diff that reads as empty.
   */
  readonly omitted?: (change: Change) => ReactNode;
}) {
  const [own, setOwn] = useState(0);
  const linkedKey = useSearchParams().get('key') ?? preferredKey;
  const selected = linked
    ? Math.max(
        0,
        changes.findIndex((change) => change.key === linkedKey),
      )
    : own;
  const setSelected = (index: number): void => (linked ? updateSearch({ key: changes[index]!.key }) : setOwn(index));
  useDiffModeShortcut();
  useEffect(() => setOwn(0), [changes]);
  const listPane = useRef<HTMLDivElement>(null);
  // Esc in the diff (reached with `]` or Load diff) goes back to the changed documents, whose own Esc goes
  // on to `onEscape`: without it the only way back was Shift+Tab through the diff's toolbar.
  const escapeFromDiff = (event: ReactKeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    if (document.querySelector('dialog[open]')) return;
    const list = listPane.current?.querySelector<HTMLElement>('[role="listbox"]');
    if (!list) return;
    event.preventDefault();
    list.focus();
  };
  if (changes.length === 0) return <EmptyState title={emptyText} />;
  const change = changes[Math.min(selected, changes.length - 1)]!;
  return (
    <div className="changes-view" data-testid="changes-view">
      <div className="changes-list" ref={listPane}>
        <div className="changes-list-header">{plural(changes.length, 'changed document')}</div>
        <VirtualList
          label="Changed documents"
          testId="changes-list"
          count={changes.length}
          rowHeight={32}
          selected={selected}
          onSelect={setSelected}
          onClose={onEscape}
          autoFocus={autoFocus}
          rowKey={(index) => changes[index]!.key}
          rowLabel={(index) => changedDocumentLabel(changes[index]!.type, nameText(changes[index]!.key))}
          renderRow={(index) => (
            <div className="change-row" title={nameText(changes[index]!.key)}>
              <ChangeMark type={changes[index]!.type} />
              <span className="change-row-key">
                <VisibleName text={changes[index]!.key} />
              </span>
            </div>
          )}
        />
      </div>
      <div className="changes-diff" onKeyDown={escapeFromDiff}>
        {omitted ? omitted(change) : <ChangeDiffPane change={change} />}
      </div>
    </div>
  );
}

/**
 * The diff pane of one change: its key and type, then its line stats, layout switch and diff; or, with
 * `pending` (its contents still loading, or not to be had), its sizes and `pending` in the diff's place.
 */
function ChangeDiffPane({ change, pending }: { readonly change: Change; readonly pending?: ReactNode }) {
  const mode = useDiffMode();
  const sizes = [change.before_bytes, change.after_bytes].filter((size) => size !== undefined);
  return (
    <>
      <div className="changes-diff-header">
        <div className="changes-diff-title">
          <span className="mono changes-diff-key" data-testid="diff-key" title={nameText(change.key)}>
            <VisibleName text={change.key} />
          </span>
          <ChangeBadge type={change.type} />
          {pending === undefined ? (
            <Stats change={change} />
          ) : (
            sizes.length > 0 && (
              <span className="muted" data-testid="change-sizes">
                {sizes.map((size) => formatBytes(size)).join(' → ')}
              </span>
            )
          )}
        </div>
        {pending === undefined && <Segmented label="Diff layout" options={MODES} value={mode} onChange={setDiffMode} />}
      </div>
      {pending ?? (
        <DiffView
          key={change.key}
          before={change.before}
          after={change.after}
          mode={mode}
          label={`Diff of ${nameText(change.key)}`}
        />
      )}
    </>
  );
}

/**
 * The diff pane of a change listed without contents, from the read of its own (`read`, whose answer
 * holds it as `loaded`): its sizes while that loads or fails, or when the answer left the contents
 * out too (then `tooLarge` says where to read it); once read, the same stats and diff as any change.
 */
export function LazyChangeDiff({
  change,
  read,
  loaded,
  tooLarge,
}: {
  readonly change: Change;
  readonly read: { readonly isError: boolean; readonly error: unknown; readonly data?: { contents_omitted?: boolean } };
  readonly loaded: Change | undefined;
  readonly tooLarge: ReactNode;
}) {
  if (read.isError)
    return (
      <ChangeDiffPane
        change={change}
        pending={<ErrorMessage error={read.error} title={`Could not read ${nameText(change.key)}`} />}
      />
    );
  if (!read.data)
    return <ChangeDiffPane change={change} pending={<Loading label={`Loading ${nameText(change.key)}…`} />} />;
  if (!loaded || read.data.contents_omitted) return <ChangeDiffPane change={change} pending={tooLarge} />;
  return <ChangeDiffPane change={loaded} />;
}
