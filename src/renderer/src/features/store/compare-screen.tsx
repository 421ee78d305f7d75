import { useMemo } from 'react';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { assertNever } from '../../lib/assert-never.js';
import { diffStates } from '../../lib/state-diff.js';
import { plural } from '../../lib/format.js';
import { SourcePicker } from './actions/source-picker.js';
import { decodeSource, describeSource, encodeSource, isEmptySource, type RestoreSource } from './actions/source.js';
import { useSourceState } from './actions/use-source-state.js';
import { ChangesView } from './changes-view.js';
import { useScope } from './use-scope.js';

/** What to ask for while a side names nothing yet. */
function emptyPrompt(side: string, source: RestoreSource): string {
  switch (source.kind) {
    case 'revision':
      return `Type a revision id for ${side}.`;
    case 'checkpoint':
      return `Pick a checkpoint for ${side}.`;
    case 'branch':
      return `Pick a branch for ${side}.`;
    default:
      return assertNever(source);
  }
}

/** Compares the documents of any two revisions, checkpoints or branch heads of a namespace. */
export function CompareScreen() {
  const scope = useScope();
  const params = useSearchParams();
  const from = decodeSource(params.get('from'), scope.branch);
  const to = decodeSource(params.get('to'), scope.branch);
  const before = useSourceState(scope, from);
  const after = useSourceState(scope, to);
  const changes = useMemo(
    () => (before.data && after.data ? diffStates(before.data.objects, after.data.objects) : undefined),
    [before.data, after.data],
  );
  const problems = [
    before.problem && { side: 'From', ...before.problem },
    after.problem && { side: 'To', ...after.problem },
  ].filter((problem) => !!problem);
  const prompts = [isEmptySource(from) && emptyPrompt('From', from), isEmptySource(to) && emptyPrompt('To', to)].filter(
    (prompt) => !!prompt,
  );

  return (
    <div className="compare" data-testid="compare-screen">
      <h1 className="visually-hidden">Compare</h1>
      <header className="toolbar toolbar-wrap compare-toolbar">
        <SourcePicker
          scope={scope}
          source={from}
          excludeCurrent={false}
          label="From"
          idPrefix="from"
          layout="inline"
          onChange={(next) => updateSearch({ from: encodeSource(next) })}
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
          onChange={(next) => updateSearch({ to: encodeSource(next) })}
        />
        {changes && changes.length > 0 && before.data && after.data && (
          <span className="muted compare-summary">
            {plural(changes.length, 'document')} {changes.length === 1 ? 'differs' : 'differ'} between{' '}
            <span className="mono">#{before.data.revision}</span> and{' '}
            <span className="mono">#{after.data.revision}</span>
          </span>
        )}
      </header>
      <div className="compare-body">
        {problems.length > 0 ? (
          <div className="page-body">
            {problems.map((problem) => (
              <ErrorMessage key={problem.side} error={problem.error} title={`${problem.side}: ${problem.title}`} />
            ))}
          </div>
        ) : prompts.length > 0 ? (
          <div className="page-body muted">{prompts.join(' ')}</div>
        ) : changes ? (
          <ChangesView
            linked
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
