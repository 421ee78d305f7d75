import { useMemo, useState } from 'react';
import type { StoreScope } from '../../../api/query-keys.js';
import { useStoreState } from '../../../api/store-queries.js';
import { useRestore } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { useRetryOfFailedRead } from '../../../components/query-view.js';
import { Field, TextInput } from '../../../components/field.js';
import { diffStates } from '../../../lib/state-diff.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, isBranchMoved } from './branch-moved.js';
import { DiffPreview } from './diff-preview.js';
import { describeSource, isCompleteSource, revisionIdOf, type RestoreSource } from './source.js';
import { SourcePicker } from './source-picker.js';
import { useSourceState } from './use-source-state.js';

/** Restores the branch's documents from a branch, revision or checkpoint, previewing the result first. */
export function RestoreDialog({
  scope,
  initial,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  readonly initial: RestoreSource;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const [source, setSource] = useState<RestoreSource>(initial);
  const [message, setMessage] = useState('');
  const head = useStoreState(scope, {});
  const from = useSourceState(scope, source);
  // A source that could not be read (its branch list, checkpoint, revision) is read again on Retry.
  const sourceRead = useRetryOfFailedRead(from.problem?.error);
  const restore = useRestore();
  const complete = isCompleteSource(source);
  const moved = isBranchMoved(restore.error);
  const changes = useMemo(
    () => (head.data && from.data ? diffStates(head.data.objects, from.data.objects) : undefined),
    [head.data, from.data],
  );
  // A submit made before the preview's documents are read waits for them; never one against a head
  // being read again (after the branch moved), which the user has to see first.
  const waiting =
    complete && !from.problem && (from.loading || head.isPending)
      ? `Restoring ${scope.branch} once the preview is read…`
      : undefined;
  const canSubmit =
    complete && !from.problem && (waiting !== undefined || (!!changes && changes.length > 0 && !head.isFetching));
  const submit = (): void =>
    restore.mutate(
      {
        scope,
        fromBranch: source.kind === 'branch' ? source.branch : undefined,
        fromRevision: source.kind === 'revision' ? revisionIdOf(source.revision) : undefined,
        fromCheckpoint: source.kind === 'checkpoint' ? source.checkpoint : undefined,
        message: message || `Restore from ${describeSource(source)}`,
        expectedRevision: head.data?.revision,
      },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Restored ${scope.branch} from ${describeSource(source)}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="restore-dialog"
      title={`Restore ${scope.branch}`}
      description={`A new revision on ${scope.branch} makes its documents equal to the source's. Nothing else changes.`}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={`Restore ${scope.branch}`}
      confirmTestId="confirm-restore"
      busy={restore.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && <BranchMovedNotice branch={scope.branch} head={head.data?.revision} refreshing={head.isFetching} />}
          {from.problem ? (
            <ErrorMessage
              error={from.problem.error}
              title={`Source: ${from.problem.title}`}
              onRetry={sourceRead.retry}
              retrying={sourceRead.retrying}
            />
          ) : complete ? (
            <DiffPreview
              changes={changes}
              error={head.error}
              emptyText={`${scope.branch} already matches ${describeSource(source)}.`}
            />
          ) : (
            <div className="muted">Pick a source to preview the restore.</div>
          )}
        </>
      }
      // A moved branch is the notice above, not a failure.
      error={moved ? undefined : restore.error}
      errorTitle="Restore failed"
    >
      <SourcePicker scope={scope} source={source} onChange={setSource} />
      <Field label="Message" htmlFor="restore-message">
        <TextInput
          id="restore-message"
          placeholder={complete ? `Restore from ${describeSource(source)}` : 'Restore'}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
