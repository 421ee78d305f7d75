import { useState } from 'react';
import type { RevisionSelector, StoreScope } from '../../../api/query-keys.js';
import { useHeadDiff } from '../../../api/store-queries.js';
import { useRollback } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { Field, TextInput } from '../../../components/field.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, isBranchMoved } from './branch-moved.js';
import { DiffPreview } from './diff-preview.js';

/** Names a revision selector for titles and messages. */
export function describeTarget(target: RevisionSelector): string {
  return target.checkpoint ? `checkpoint “${target.checkpoint}”` : `#${target.revision}`;
}

/**
 * Rolls a branch back to a revision or checkpoint after showing exactly what would change. The
 * write carries the previewed head as `expected_revision`, so a branch that moved meanwhile is
 * refused (409) rather than rolled back blind.
 */
export function RollbackDialog({
  scope,
  target,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  readonly target: RevisionSelector;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const preview = useHeadDiff(scope, target);
  const rollback = useRollback();
  const [message, setMessage] = useState(`Roll back to ${describeTarget(target)}`);
  const changes = preview.data?.changes;
  const moved = isBranchMoved(rollback.error);
  // Confirmed only against a preview on screen: one pressed before the first preview arrives waits for
  // it, never against one being computed again (after the branch moved), which the user has to see first.
  const waiting = preview.isPending ? 'Rolling back once the preview is read…' : undefined;
  const canSubmit = waiting !== undefined || (!!changes && changes.length > 0 && !preview.isFetching);
  const submit = (): void =>
    rollback.mutate(
      { scope, ...target, message, expectedRevision: preview.data?.from_revision },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Rolled back ${scope.branch} to ${describeTarget(target)}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="rollback-dialog"
      title={`Roll back ${scope.branch} to ${describeTarget(target)}`}
      description="A new revision makes the documents equal to the target again. History is kept: you can roll forward the same way."
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={`Roll back ${scope.branch}`}
      confirmTestId="confirm-rollback"
      busy={rollback.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && (
            <BranchMovedNotice
              branch={scope.branch}
              head={preview.data?.from_revision}
              refreshing={preview.isFetching}
            />
          )}
          <DiffPreview
            changes={changes}
            error={preview.error}
            emptyText={`${scope.branch} already matches ${describeTarget(target)}: nothing to roll back.`}
          />
        </>
      }
      // A moved branch is the notice above, not a failure.
      error={moved ? undefined : rollback.error}
      errorTitle="Rollback failed"
    >
      <Field label="Message" htmlFor="rollback-message">
        <TextInput id="rollback-message" value={message} onChange={(event) => setMessage(event.target.value)} />
      </Field>
    </FormDialog>
  );
}
