import { useQuery } from '@tanstack/react-query';
import { logResponseSchema } from '../../../../shared/store-api.js';
import { useApi } from '../../api/api-context.js';
import { queryKeys, type StoreScope } from '../../api/query-keys.js';
import { useBranches } from '../../api/store-queries.js';
import { updateSearch, useSearchParams } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { CompareIcon } from '../../components/icons.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { plural } from '../../lib/format.js';
import { SourcePicker } from './actions/source-picker.js';
import {
  decodeSource,
  describeSource,
  encodeSource,
  isEmptySource,
  revisionSource,
  type RestoreSource,
} from './actions/source.js';
import { useSourceBranch } from './actions/use-source-state.js';
import { ChangesView } from './changes-view.js';
import { CompareContents } from './compare-contents.js';
import { useCompareDiff, type CompareSide } from './compare-diff.js';
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

/** The two sides of a comparison. */
interface Sides {
  readonly from: RestoreSource;
  readonly to: RestoreSource;
}

/**
 * The sides Compare opens on when the address names neither, as GitHub compares base ← head: for a
 * branch made from another, the revision it was made from with its head (what the branch changed);
 * for one that was not (main), the revision before its head with the head (what its last write
 * changed). Undefined while what decides it is read; the branch with itself when there is nothing
 * earlier (an empty branch, a single revision) or the branches cannot be listed.
 */
function useDefaultSides(scope: StoreScope, wanted: boolean): Sides | undefined {
  const api = useApi();
  const branches = useBranches(scope);
  const current = branches.data?.branches.find((branch) => branch.name === scope.branch);
  const head: RestoreSource = { kind: 'branch', branch: scope.branch };
  const ownHistory = wanted && current !== undefined && current.base_revision === 0 && current.head_revision > 0;
  // The head's parent, from the log's newest entry alone, keys only.
  const newest = useQuery({
    queryKey: [...queryKeys.store.log(scope), 'newest'],
    enabled: ownHistory,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/log', {
        query: { namespace: scope.namespace, branch: scope.branch, limit: 1, contents: false },
        schema: logResponseSchema,
        signal,
      }),
  });
  if (!wanted) return undefined;
  if (branches.isPending) return undefined;
  if (current && current.base_revision > 0) return { from: revisionSource(current.base_revision), to: head };
  if (!ownHistory) return { from: head, to: head };
  if (newest.isPending) return undefined;
  const parent = newest.data?.entries[0]?.parent_id ?? 0;
  return { from: parent > 0 ? revisionSource(parent) : head, to: head };
}

/** A side once its branch is known and nothing is wrong with it; undefined until then. */
function resolvedSide(source: RestoreSource, found: ReturnType<typeof useSourceBranch>): CompareSide | undefined {
  if (found.problem || found.branch === undefined || !found.complete) return undefined;
  return { source, branch: found.branch, revisionId: found.revisionId };
}

/** Compares the documents of any two revisions, checkpoints or branch heads of a namespace. */
export function CompareScreen() {
  const scope = useScope();
  const params = useSearchParams();
  const named = params.get('from') !== null || params.get('to') !== null;
  const defaults = useDefaultSides(scope, !named);
  const from = defaults?.from ?? decodeSource(params.get('from'), scope.branch);
  const to = defaults?.to ?? decodeSource(params.get('to'), scope.branch);
  const resolving = !named && defaults === undefined;
  // Both sides go into the address, so a default side stays as shown when the other one changes.
  const show = (sides: Sides): void => updateSearch({ from: encodeSource(sides.from), to: encodeSource(sides.to) });
  const before = useSourceBranch(scope, from);
  const after = useSourceBranch(scope, to);
  const fromSide = resolvedSide(from, before);
  const toSide = resolvedSide(to, after);
  // The store compares the two sides itself: the list of changed documents, not both whole states.
  const diff = useCompareDiff(scope.namespace, fromSide, toSide);
  const compared = diff.data;
  const changes = compared?.changes;
  const problems = [
    before.problem && { side: 'From', ...before.problem },
    after.problem && { side: 'To', ...after.problem },
    !before.problem &&
      !after.problem &&
      diff.error && { side: 'Compare', title: 'could not compare', error: diff.error },
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
          onChange={(next) => show({ from: next, to })}
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
          onChange={(next) => show({ from, to: next })}
        />
        <Button
          size="sm"
          variant="ghost"
          icon={<CompareIcon />}
          disabled={resolving}
          title="Compare the other way round: From becomes To"
          onClick={() => show({ from: to, to: from })}
        >
          Swap sides
        </Button>
        {compared && compared.changes.length > 0 && (
          <span className="muted compare-summary">
            {plural(compared.changes.length, 'document')} {compared.changes.length === 1 ? 'differs' : 'differ'} between{' '}
            <span className="mono">#{compared.from_revision}</span> and{' '}
            <span className="mono">#{compared.to_revision}</span>
          </span>
        )}
      </header>
      <div className="compare-body">
        {resolving ? (
          <Loading label="Comparing…" />
        ) : problems.length > 0 ? (
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
            omitted={
              compared?.contents_omitted && fromSide && toSide
                ? (change) => (
                    <CompareContents namespace={scope.namespace} from={fromSide} to={toSide} change={change} />
                  )
                : undefined
            }
          />
        ) : (
          <Loading label="Comparing…" />
        )}
      </div>
    </div>
  );
}
