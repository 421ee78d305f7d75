import { useMemo, useState } from 'react';
import { useStoreState } from '../../api/store-queries.js';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { ContentView } from '../../components/diff/diff-view.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { TextInput } from '../../components/field.js';
import { FilesIcon, UndoIcon } from '../../components/icons.js';
import { VirtualList } from '../../components/virtual-list.js';
import { byteLength, formatBytes, plural } from '../../lib/format.js';
import { compareKeys } from '../../lib/state-diff.js';
import { useFilterShortcut } from '../../lib/use-filter-shortcut.js';
import { RollbackDialog } from './actions/rollback-dialog.js';
import { decodeRevisionParam, encodeRevisionParam } from './actions/source.js';
import { pickedProblem, RevisionPicker, selectorOf, type PickedRevision } from './revision-picker.js';
import { EmptyBranch } from './store-empty.js';
import { useScope } from './use-scope.js';

/** What the address asks to show: `checkpoint=<name>`, `rev=<id>` (kept as typed, see `encodeRevisionParam`), else the head. */
function pickedFrom(params: URLSearchParams): PickedRevision {
  const checkpoint = params.get('checkpoint');
  if (checkpoint) return { kind: 'checkpoint', checkpoint };
  const rev = params.get('rev');
  return rev ? { kind: 'revision', revision: decodeRevisionParam(rev) } : { kind: 'head' };
}

/** The documents of a branch at the head, any revision or any checkpoint, with a filter. */
export function DocumentsScreen() {
  const scope = useScope();
  const params = useSearchParams();
  const picked = pickedFrom(params);
  const problem = pickedProblem(picked);
  // Undefined while the revision id is empty or not one: nothing to read, and no silent fallback to the head.
  const selector = selectorOf(picked);
  const at = selector ?? {};
  const state = useStoreState(scope, at, selector !== undefined);
  const head = useStoreState(scope, {});
  const [filter, setFilter] = useState('');
  const [rollingBack, setRollingBack] = useState(false);
  const filterRef = useFilterShortcut();
  const keys = useMemo(() => Object.keys(state.data?.objects ?? {}).sort(compareKeys), [state.data]);
  const shown = useMemo(
    () => (filter ? keys.filter((key) => key.toLowerCase().includes(filter.toLowerCase())) : keys),
    [keys, filter],
  );
  const selectedKey = params.get('key') ?? shown[0];
  const selectedIndex = selectedKey ? shown.indexOf(selectedKey) : -1;
  const content = selectedKey !== undefined ? state.data?.objects[selectedKey] : undefined;

  const atHead = !at.checkpoint && (!at.revision || at.revision === head.data?.revision);
  const toolbar = (
    <header className="toolbar">
      <span className="toolbar-title">Documents at</span>
      <RevisionPicker
        scope={scope}
        value={picked}
        headRevision={head.data?.revision}
        onChange={(next) =>
          updateSearch({
            rev: next.kind === 'revision' ? encodeRevisionParam(next.revision) : undefined,
            checkpoint: next.kind === 'checkpoint' ? next.checkpoint : undefined,
            key: undefined,
          })
        }
      />
      {selector && state.data && (
        <span className="muted" data-testid="state-summary">
          {plural(keys.length, 'document')} at <span className="mono">#{state.data.revision}</span>
        </span>
      )}
      {selector && !atHead && state.data && (
        <Button size="sm" className="toolbar-end" icon={<UndoIcon />} onClick={() => setRollingBack(true)}>
          Roll back {scope.branch} to this
        </Button>
      )}
    </header>
  );
  if (problem)
    return (
      <div className="page-body">
        {toolbar}
        <ErrorMessage error={new Error(problem.detail)} title={problem.title} />
      </div>
    );
  if (!selector)
    return (
      <div className="page-body">
        {toolbar}
        <p className="muted">Type a revision id to see its documents.</p>
      </div>
    );
  if (state.isPending) return <Loading label="Loading documents…" />;
  if (state.isError)
    return (
      <div className="page-body">
        {toolbar}
        <ErrorMessage error={state.error} title="Could not load the documents" />
      </div>
    );
  if (state.data.revision === 0)
    return (
      <div className="page-body">
        <EmptyBranch scope={scope} />
      </div>
    );

  return (
    <div className="documents" data-testid="documents-screen">
      {toolbar}
      <div className="split-view">
        <section className="split-list">
          <div className="split-list-header">
            <TextInput
              ref={filterRef}
              className="filter-input"
              placeholder="Filter keys  /"
              aria-label="Filter keys"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          </div>
          {shown.length === 0 ? (
            <EmptyState title={keys.length ? 'No key matches the filter' : 'No documents at this revision'} />
          ) : (
            <VirtualList
              label="Documents"
              testId="document-list"
              count={shown.length}
              rowHeight={32}
              autoFocus
              selected={selectedIndex}
              onSelect={(index) => updateSearch({ key: shown[index] })}
              rowKey={(index) => shown[index]!}
              renderRow={(index) => (
                <div className="change-row" title={shown[index]}>
                  <FilesIcon size={14} className="muted" />
                  <span className="change-row-key">{shown[index]}</span>
                </div>
              )}
            />
          )}
        </section>
        <section className="split-detail">
          {selectedKey !== undefined && content !== undefined && (
            <div className="document-view">
              <div className="changes-diff-header">
                <div className="changes-diff-title">
                  <span className="mono changes-diff-key">{selectedKey}</span>
                  <span className="muted">{formatBytes(byteLength(content))}</span>
                </div>
                <CopyButton text={content} label="Copy content" />
              </div>
              <ContentView content={content} />
            </div>
          )}
        </section>
      </div>
      {rollingBack && <RollbackDialog scope={scope} target={at} onClose={() => setRollingBack(false)} />}
    </div>
  );
}
