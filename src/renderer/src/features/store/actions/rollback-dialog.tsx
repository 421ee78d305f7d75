import { useState } from 'react';
import type { RevisionSelector, StoreScope } from '../../../api/query-keys.js';
import { useHeadDiff } from '../../../api/store-queries.js';
import { useRollback } from '../../../api/store-mutations.js';
import { ConfirmFooter, Dialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextInput } from '../../../components/field.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, isBranchMoved } from './branch-moved.js';
import { DialogForm } from './dialog-form.js';
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
}: {
  readonly scope: StoreScope;
  readonly target: RevisionSelector;
  readonly onClose: () => void;
}) {
  const preview = useHeadDiff(scope, target);
  const rollback = useRollback();
  const [message, setMessage] = useState(`Roll back to ${describeTarget(target)}`);
  const changes = preview.data?.changes;
  const moved = isBranchMoved(rollback.error);
  // Never confirm against a preview that is being computed again (after the branch moved).
  const canSubmit = !!changes && changes.length > 0 && !preview.isFetching && !rollback.isPending;
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
    <Dialog
      wide
      testId="rollback-dialog"
      title={`Roll back ${scope.branch} to ${describeTarget(target)}`}
      description="A new revision makes the documents equal to the target again. History is kept: you can roll forward the same way."
      onClose={onClose}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={submit}
          busy={rollback.isPending}
          disabled={!canSubmit}
          testId="confirm-rollback"
        >
          Roll back {scope.branch}
        </ConfirmFooter>
      }
    >
      <DialogForm onSubmit={submit} canSubmit={canSubmit}>
        <Field label="Message" htmlFor="rollback-message">
          <TextInput id="rollback-message" value={message} onChange={(event) => setMessage(event.target.value)} />
        </Field>
      </DialogForm>
      {moved && (
        <BranchMovedNotice branch={scope.branch} head={preview.data?.from_revision} refreshing={preview.isFetching} />
      )}
      <DiffPreview
        changes={changes}
        error={preview.error}
        emptyText={`${scope.branch} already matches ${describeTarget(target)}: nothing to roll back.`}
      />
      {rollback.error && !moved && <ErrorMessage error={rollback.error} title="Rollback failed" />}
    </Dialog>
  );
}
