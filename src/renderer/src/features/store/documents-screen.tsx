import { useMemo, useState } from 'react';
import type { RevisionSelector } from '../../api/query-keys.js';
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
import { RevisionPicker } from './revision-picker.js';
import { EmptyBranch } from './store-empty.js';
import { useScope } from './use-scope.js';

function selectorFrom(params: URLSearchParams): RevisionSelector {
  const checkpoint = params.get('checkpoint');
  if (checkpoint) return { checkpoint };
  const revision = Number(params.get('rev'));
  return revision > 0 ? { revision } : {};
}

/** The documents of a branch at the head, any revision or any checkpoint, with a filter. */
export function DocumentsScreen() {
  const scope = useScope();
  const params = useSearchParams();
  const at = selectorFrom(params);
  const state = useStoreState(scope, at);
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
        value={at}
        headRevision={head.data?.revision}
        onChange={(next) => updateSearch({ rev: next.revision, checkpoint: next.checkpoint, key: undefined })}
      />
      {state.data && (
        <span className="muted" data-testid="state-summary">
          {plural(keys.length, 'document')} at <span className="mono">#{state.data.revision}</span>
        </span>
      )}
      {!atHead && state.data && (
        <Button size="sm" className="toolbar-end" icon={<UndoIcon />} onClick={() => setRollingBack(true)}>
          Roll back {scope.branch} to this
        </Button>
      )}
    </header>
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
