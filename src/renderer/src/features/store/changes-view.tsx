import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Change } from '../../../../shared/store-api.js';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { DiffView } from '../../components/diff/diff-view.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState } from '../../components/feedback.js';
import { Segmented } from '../../components/segmented.js';
import { VirtualList } from '../../components/virtual-list.js';
import { setDiffMode, toggleDiffMode, useDiffMode, useHideWhitespace, type DiffMode } from '../../lib/diff-mode.js';
import { nameText } from '../../lib/invisible-chars.js';
import { diffLines, diffStats } from '../../lib/text-diff.js';
import { isTypingTarget } from '../../lib/use-list-navigation.js';
import { plural } from '../../lib/format.js';
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
   * Set when the changes came without their contents (they passed the store's response limit): what
   * the diff pane shows for a change instead of a diff that would read as empty.
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
  const mode = useDiffMode();
  useDiffModeShortcut();
  useEffect(() => setOwn(0), [changes]);
  if (changes.length === 0) return <EmptyState title={emptyText} />;
  const change = changes[Math.min(selected, changes.length - 1)]!;
  return (
    <div className="changes-view" data-testid="changes-view">
      <div className="changes-list">
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
      <div className="changes-diff">
        <div className="changes-diff-header">
          <div className="changes-diff-title">
            <span className="mono changes-diff-key" data-testid="diff-key" title={nameText(change.key)}>
              <VisibleName text={change.key} />
            </span>
            <ChangeBadge type={change.type} />
            {!omitted && <Stats change={change} />}
          </div>
          {!omitted && <Segmented label="Diff layout" options={MODES} value={mode} onChange={setDiffMode} />}
        </div>
        {omitted ? (
          omitted(change)
        ) : (
          <DiffView
            key={change.key}
            before={change.before}
            after={change.after}
            mode={mode}
            label={`Diff of ${nameText(change.key)}`}
          />
        )}
      </div>
    </div>
  );
}
