import { useState } from 'react';
import type { MergeResponse } from '../../../../../shared/store-api.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useMergePreview } from '../../../api/store-queries.js';
import { useMerge } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextInput } from '../../../components/field.js';
import { plural } from '../../../lib/format.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, isBranchMoved, movedPastExpected } from './branch-moved.js';
import { DiffPreview } from './diff-preview.js';
import { MergeConflictChoices, useConflictChoices } from './merge-conflict-choices.js';
import { conflictSides } from './merge-conflict-sides.js';

/**
 * Merges another branch's head into the scope's branch. The preview is the store's dry run of the
 * merge, so it lists exactly the documents the merge would write (what the other branch changed since
 * their merge base, not every document that differs), says when the branch is already up to date, and
 * shows a conflict (the store's 409, naming each document and what each side did) before anything is
 * sent, with Merge disabled until each conflicting document has a side (ours or theirs). Each conflict
 * opens a diff of ours against theirs, or of the merge base against either side, and what merges
 * cleanly is listed at once (the dry run keeping ours everywhere); once every conflict has a side the
 * preview is the dry run with those sides, and the merge sends them. The write carries the heads the
 * preview was computed against as `expected_revision` and `expected_from_revision`, so what is merged
 * is what was shown.
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
  const preview = useMergePreview(scope, from);
  const merge = useMerge();
  // A refusal the preview reads again stands, whatever an earlier read of the same heads answered.
  const conflict = isBranchMoved(preview.error) ? preview.error : undefined;
  // Keeping ours for every conflict never refuses, and its `resolved` names each conflicting document.
  const conflicts = useMergePreview(scope, from, { strategy: 'ours', enabled: !!conflict });
  const conflictKeys = conflict
    ? conflicts.data?.resolved?.map((resolved) => resolved.key)
    : preview.data && !preview.error
      ? []
      : undefined;
  const choices = useConflictChoices(conflictKeys);
  // Taking theirs everywhere writes each conflict over ours: its changes hold both contents of each.
  const theirs = useMergePreview(scope, from, { strategy: 'theirs', enabled: !!conflict });
  const listed = conflict && conflictKeys && conflictKeys.length > 0 ? conflictKeys : undefined;
  const resolvedPreview = useMergePreview(scope, from, {
    resolve: choices.chosen,
    expectedRevision: conflicts.data?.revision,
    expectedFromRevision: conflicts.data?.from_revision,
    enabled: choices.complete,
  });
  // A 409 there means a head moved since the conflicts were listed: they are being listed again.
  const resolvedError = isBranchMoved(resolvedPreview.error) ? undefined : resolvedPreview.error;
  // With conflicts, what the merge writes is known once each has a side: the dry run with those sides.
  const shown = conflict ? (choices.complete ? resolvedPreview : undefined) : preview;
  const previewed = shown && !shown.error ? shown.data : undefined;
  const moved = movedPastExpected(
    merge.error,
    merge.variables?.expectedRevision,
    previewed?.revision,
    preview.isFetching || !!shown?.isFetching,
  );
  const waiting =
    preview.isPending || (conflict && choices.complete && resolvedPreview.isPending)
      ? `Merging once the preview is read…`
      : undefined;
  const canSubmit = waiting !== undefined || (!!previewed && !previewed.noop && !shown?.isFetching);
  const submit = (): void =>
    merge.mutate(
      {
        scope,
        fromBranch: from,
        message: message || undefined,
        // What the preview showed is what is merged: a branch that moved since is refused.
        expectedRevision: previewed?.revision,
        expectedFromRevision: previewed?.from_revision,
        // Sides by document, never a strategy: a conflict that appeared since still refuses the merge.
        resolve: conflict ? choices.chosen : undefined,
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
      description={`A new revision on ${scope.branch} takes what ${from} changed since the two branches parted, as listed below; what ${scope.branch} changed meanwhile stays. A document both changed differently is a conflict: choose for each whether to keep ours or take theirs before merging.`}
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
          {moved && (
            <BranchMovedNotice branch={scope.branch} head={previewed?.revision} refreshing={preview.isFetching} />
          )}
          {/* The store's refusal stands until the conflicts are listed with their choices, which replace it. */}
          {conflict && !listed && (
            <ErrorMessage
              error={conflict}
              title={`Merge conflict: ${from} cannot be merged into ${scope.branch} yet`}
            />
          )}
          {listed && (
            <MergeConflictChoices
              conflicts={listed}
              choices={choices}
              into={scope.branch}
              from={from}
              sides={theirs.data && conflictSides(theirs.data.changes, listed)}
              sidesError={!!theirs.error}
              namespace={scope.namespace}
              mergeBase={conflicts.data?.merge_base}
            />
          )}
          {listed && !choices.complete && (
            <DiffPreview
              testId="merge-clean-changes"
              title="Changes that merge without conflict"
              changes={conflicts.data?.changes}
              summary={
                conflicts.data?.changes.length
                  ? `${plural(conflicts.data.changes.length, 'document')} would change on ${scope.branch} whichever sides you choose`
                  : undefined
              }
              emptyText={`${from} brings nothing else: only the conflicts above differ.`}
            />
          )}
          {(!conflict || choices.complete || conflicts.error) && (
            <DiffPreview
              title="Documents the merge writes"
              changes={previewed?.changes}
              error={conflict ? (conflicts.error ?? resolvedError) : preview.error}
              summary={previewed?.changes.length ? mergeSummary(scope.branch, from, previewed) : undefined}
              emptyText={
                conflict
                  ? `Every conflict keeps ${scope.branch}'s content and ${from} brings nothing else: the merge changes no document but is recorded, so these conflicts are not asked again.`
                  : `${scope.branch} is already up to date with ${from}: nothing to merge.`
              }
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

/** `2 documents would change on main: what feature changed since their merge base #3`. */
function mergeSummary(into: string, from: string, previewed: MergeResponse): string {
  const since = previewed.merge_base
    ? `since their merge base #${previewed.merge_base}`
    : '(the branches have no common revision)';
  return `${plural(previewed.changes.length, 'document')} would change on ${into}: what ${from} changed ${since}`;
}
