import { useState } from 'react';
import { newCheckpointNameSchema, type Checkpoint, type LogEntry } from '../../../../../shared/store-api.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useCheckpoints, useLog } from '../../../api/store-queries.js';
import { useCreateCheckpoint, useDeleteCheckpoint } from '../../../api/store-mutations.js';
import { ConfirmFooter, Dialog, FormDialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextArea, TextInput } from '../../../components/field.js';
import { showToast } from '../../../components/toast.js';
import { messageSummary } from '../revision-message.js';

/**
 * Creates a checkpoint at the branch head, or at `revision` of the branch (an existing name is moved
 * there, as `git tag -f`). Whether a name exists decides what is sent (moving one keeps its
 * description), so the dialog reads the namespace's checkpoints and the branch head before it sends: a
 * submit made sooner waits for them.
 */
export function CreateCheckpointDialog({
  scope,
  revision,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  /** The revision to mark, one of the scope's branch (History's "Checkpoint this revision"); the head when left out. */
  readonly revision?: LogEntry;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  // A named revision needs no head: the log is read only to mark the head.
  const log = useLog(scope, '', revision === undefined);
  const head = log.data?.pages[0]?.entries[0];
  // What the checkpoint will mark, and how the dialog names it.
  const target = revision ?? head;
  const targetText = revision ? `#${revision.id} of ${scope.branch}` : `the head of ${scope.branch}`;
  const checkpoints = useCheckpoints(scope.namespace);
  const create = useCreateCheckpoint();
  const [name, setName] = useState('');
  // Undefined until the user edits it: moving a checkpoint then keeps the description it has.
  const [edited, setEdited] = useState<string>();
  const moving = checkpoints.data?.checkpoints.find((checkpoint) => checkpoint.name === name.trim());
  const description = edited ?? moving?.description ?? '';
  // Already at the head: "moving" it would change only its description, if that was edited.
  const inPlace = moving !== undefined && target !== undefined && moving.revision_id === target.id;
  const unchanged = inPlace && description === (moving.description ?? '');
  // The store's own rule, shown on the field as typed rather than as the store's refusal after a submit.
  const nameCheck = newCheckpointNameSchema.safeParse(name.trim());
  const nameProblem =
    name.trim() === '' || nameCheck.success
      ? undefined
      : `Name ${nameCheck.error.issues[0]?.message ?? 'is not valid'}.`;
  const empty = revision === undefined && log.isSuccess && head === undefined;
  // Until the list is read, any name looks new, and the store would move one that exists and replace
  // its description with the empty one shown. A branch head that could not be read is no obstacle: the
  // store marks the head it has when the request arrives.
  const waiting = checkpoints.isPending
    ? `Marking ${targetText} once the namespace’s checkpoints are read…`
    : revision === undefined && log.isPending
      ? `Marking the head of ${scope.branch} once it is read…`
      : undefined;
  const canSubmit =
    name.trim() !== '' && !empty && !unchanged && nameProblem === undefined && checkpoints.error === null;
  // The store replaces the description when it moves a checkpoint (a missing one is empty), so the
  // description shown is always the one sent.
  const request: Parameters<typeof create.mutate>[0] = {
    scope,
    name: name.trim(),
    description,
    revision_id: revision?.id,
  };
  const submit = (): void =>
    create.mutate(request, {
      onSuccess: (result) => {
        onClose();
        showToast(
          inPlace
            ? `Checkpoint “${result.name}” at #${result.revision_id} updated`
            : moving
              ? `Checkpoint “${result.name}” moved from #${moving.revision_id} to #${result.revision_id}`
              : `Checkpoint “${result.name}” created at #${result.revision_id}`,
        );
      },
    });
  return (
    <FormDialog
      layout="stack"
      testId="checkpoint-dialog"
      title={
        inPlace ? `Update checkpoint “${moving.name}”` : moving ? `Move checkpoint “${moving.name}”` : 'New checkpoint'
      }
      description={
        revision
          ? `Marks #${revision.id} of ${scope.branch}, “${messageSummary(revision.message)}”. A checkpoint keeps its revision safe from garbage collection.`
          : head
            ? `Marks the head of ${scope.branch}, #${head.id} “${messageSummary(head.message)}”. A checkpoint keeps its revision safe from garbage collection.`
            : empty
              ? `The branch ${scope.branch} has no revision to mark yet.`
              : `Marks the head of ${scope.branch}. A checkpoint keeps its revision safe from garbage collection.`
      }
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={inPlace ? 'Update checkpoint' : moving ? 'Move checkpoint' : 'Create checkpoint'}
      confirmTestId="confirm-checkpoint"
      busy={create.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      request={create}
      // Without the list the dialog cannot tell a new name from one it would move.
      error={checkpoints.error ?? create.error}
      errorTitle={checkpoints.error ? 'Could not list the checkpoints' : 'Could not create the checkpoint'}
    >
      <Field
        label="Name"
        htmlFor="checkpoint-name"
        error={nameProblem}
        hint={
          inPlace
            ? `“${moving.name}” is already at #${moving.revision_id}: ${unchanged ? 'edit its description to update it' : 'its description will be updated'}.`
            : moving
              ? `“${moving.name}” exists at #${moving.revision_id}; it will move to ${target ? `#${target.id}` : 'the head'}.`
              : checkpoints.isPending
                ? 'Reading the checkpoints, to tell a new name from one that moves…'
                : 'For example release-2024-06.'
        }
      >
        <TextInput id="checkpoint-name" value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field
        label="Description"
        htmlFor="checkpoint-description"
        hint={
          moving && edited === undefined && moving.description
            ? `Kept from “${moving.name}”; edit to change it.`
            : undefined
        }
      >
        <TextArea
          id="checkpoint-description"
          rows={3}
          value={description}
          onChange={(event) => setEdited(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}

/** Confirms deleting a checkpoint; its revision may then be pruned by garbage collection. */
export function DeleteCheckpointDialog({
  namespace,
  checkpoint,
  onDeleted,
  onClose,
}: {
  readonly namespace: string;
  readonly checkpoint: Checkpoint;
  /** Once the store has deleted it (the dialog is then done; the checkpoint list is read again meanwhile). */
  readonly onDeleted: () => void;
  readonly onClose: () => void;
}) {
  const remove = useDeleteCheckpoint();
  const submit = (): void =>
    remove.mutate(
      { namespace, name: checkpoint.name },
      {
        onSuccess: () => {
          onDeleted();
          showToast(`Deleted checkpoint “${checkpoint.name}”`);
        },
      },
    );
  return (
    <Dialog
      testId="delete-checkpoint-dialog"
      title={`Delete checkpoint “${checkpoint.name}”?`}
      description={`Revision #${checkpoint.revision_id} stays in history, but is no longer protected from garbage collection.`}
      onClose={onClose}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={submit}
          variant="danger"
          busy={remove.isPending}
          testId="confirm-delete-checkpoint"
        >
          Delete checkpoint
        </ConfirmFooter>
      }
    >
      {remove.error && <ErrorMessage error={remove.error} title="Could not delete the checkpoint" />}
    </Dialog>
  );
}
