import { useMemo } from 'react';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { diffStates } from '../../lib/state-diff.js';
import { plural } from '../../lib/format.js';
import { describeSource, isCompleteSource, SourcePicker } from './actions/source-picker.js';
import { useSourceState, type RestoreSource } from './actions/use-source-state.js';
import { ChangesView } from './changes-view.js';
import { useScope } from './use-scope.js';

/** A source in the URL: `12` (revision), `cp:name` (checkpoint), `branch:name` (branch head). */
function decode(value: string | null, fallbackBranch: string): RestoreSource {
  if (value?.startsWith('cp:')) return { kind: 'checkpoint', checkpoint: value.slice(3) };
  if (value?.startsWith('branch:')) return { kind: 'branch', branch: value.slice(7) };
  const revision = Number(value);
  if (value && revision > 0) return { kind: 'revision', revision };
  return { kind: 'branch', branch: fallbackBranch };
}

function encode(source: RestoreSource): string {
  if (source.kind === 'checkpoint') return `cp:${source.checkpoint}`;
  if (source.kind === 'branch') return `branch:${source.branch}`;
  return String(source.revision || '');
}

/** Compares the documents of any two revisions, checkpoints or branch heads of a namespace. */
export function CompareScreen() {
  const scope = useScope();
  const params = useSearchParams();
  const from = decode(params.get('from'), scope.branch);
  const to = decode(params.get('to'), scope.branch);
  const before = useSourceState(scope.namespace, isCompleteSource(from) ? from : undefined);
  const after = useSourceState(scope.namespace, isCompleteSource(to) ? to : undefined);
  const changes = useMemo(
    () => (before.data && after.data ? diffStates(before.data.objects, after.data.objects) : undefined),
    [before.data, after.data],
  );
  const error = before.error ?? after.error;

  return (
    <div className="compare" data-testid="compare-screen">
      <header className="toolbar toolbar-wrap compare-toolbar">
        <SourcePicker
          scope={scope}
          source={from}
          excludeCurrent={false}
          label="From"
          idPrefix="from"
          layout="inline"
          onChange={(next) => updateSearch({ from: encode(next) })}
        />
        <span className="compare-arrow" aria-hidden="true">
          →
        </span>
        <SourcePicker
          scope={scope}
          source={to}
          excludeCurrent={false}
          label="To"
          idPrefix="to"
          layout="inline"
          onChange={(next) => updateSearch({ to: encode(next) })}
        />
        {changes && before.data && after.data && (
          <span className="muted compare-summary">
            {plural(changes.length, 'document')} differ between <span className="mono">#{before.data.revision}</span>{' '}
            and <span className="mono">#{after.data.revision}</span>
          </span>
        )}
      </header>
      <div className="compare-body">
        {error ? (
          <div className="page-body">
            <ErrorMessage error={error} title="Could not load one side of the comparison" />
          </div>
        ) : !isCompleteSource(from) || !isCompleteSource(to) ? (
          <div className="page-body muted">Pick two revisions, checkpoints or branches to compare.</div>
        ) : changes ? (
          <ChangesView
            changes={changes}
            emptyText={`${describeSource(from)} and ${describeSource(to)} have the same documents.`}
          />
        ) : (
          <Loading label="Comparing…" />
        )}
      </div>
    </div>
  );
}
