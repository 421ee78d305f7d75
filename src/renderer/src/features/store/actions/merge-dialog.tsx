import { useMemo, useState } from 'react';
import type { StoreScope } from '../../../api/query-keys.js';
import { useStoreState } from '../../../api/store-queries.js';
import { useMerge } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextInput } from '../../../components/field.js';
import { plural } from '../../../lib/format.js';
import { diffStates } from '../../../lib/state-diff.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, movedPastExpected } from './branch-moved.js';
import { DiffPreview } from './diff-preview.js';
import { useSourceState } from './use-source-state.js';

/**
 * Merges another branch's head into the scope's branch. The UI cannot read the two branches' merge
 * base, so the preview is the documents that differ between the heads, said to be so: the store takes
 * only what the source changed since the merge base, and refuses (409, shown here as it words it) when
 * both changed a document differently. The write carries the previewed target head as `expected_revision`.
 */
export function MergeDialog({
  scope,
  from,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  /** The branch merged into the scope's. */
  readonly from: string;
  readonly onClose: () => void;
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const [message, setMessage] = useState('');
  const head = useStoreState(scope, {});
  const source = useSourceState(scope, { kind: 'branch', branch: from });
  const merge = useMerge();
  const headRevision = head.isPlaceholderData ? undefined : head.data?.revision;
  const changes = useMemo(
    () =>
      head.data && !head.isPlaceholderData && source.data
        ? diffStates(head.data.objects, source.data.objects)
        : undefined,
    [head.data, head.isPlaceholderData, source.data],
  );
  const moved = movedPastExpected(merge.error, merge.variables?.expectedRevision, headRevision, head.isFetching);
  const waiting =
    !source.problem && (source.loading || head.isPending) ? `Merging once the preview is read…` : undefined;
  const canSubmit = !source.problem && (waiting !== undefined || (!!changes && changes.length > 0 && !head.isFetching));
  const submit = (): void =>
    merge.mutate(
      {
        scope,
        fromBranch: from,
        message: message || undefined,
        expectedRevision: headRevision,
        // What the preview showed of the source is what is merged: a source that moved since is refused.
        expectedFromRevision: source.data?.revision,
      },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Merged ${from}@${result.from_revision} into ${scope.branch}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="merge-dialog"
      title={`Merge ${from} into ${scope.branch}`}
      description={`A new revision on ${scope.branch} takes what ${from} changed since the two branches parted; what ${scope.branch} changed meanwhile stays, so not every document that differs below changes. A document both changed differently stops the merge, and nothing is written.`}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={`Merge into ${scope.branch}`}
      confirmTestId="confirm-merge"
      busy={merge.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && <BranchMovedNotice branch={scope.branch} head={headRevision} refreshing={head.isFetching} />}
          {source.problem ? (
            <ErrorMessage error={source.problem.error} title={`Source: ${source.problem.title}`} />
          ) : (
            <DiffPreview
              title="Documents that differ"
              changes={changes}
              error={head.error}
              summary={
                changes?.length
                  ? `${plural(changes.length, 'document')} ${changes.length === 1 ? 'differs' : 'differ'} between ${scope.branch} and ${from}`
                  : undefined
              }
              emptyText={`${scope.branch} already has the documents of ${from}: nothing to merge.`}
            />
          )}
        </>
      }
      // A moved branch is the notice above; a conflict is the store's own message, naming the documents.
      error={moved ? undefined : merge.error}
      errorTitle="Nothing was merged"
    >
      <Field label="Message" htmlFor="merge-message">
        <TextInput
          id="merge-message"
          placeholder={`merge ${from} into ${scope.branch} (the store adds the heads and merge base)`}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
