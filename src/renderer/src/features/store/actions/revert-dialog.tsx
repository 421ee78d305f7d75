import { useMemo, useState } from 'react';
import type { LogEntry } from '../../../../../shared/store-api.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useStoreState } from '../../../api/store-queries.js';
import { useRevert } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { plural } from '../../../lib/format.js';
import { Field, TextInput } from '../../../components/field.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, movedPastExpected } from './branch-moved.js';
import { ConflictList } from './conflict-list.js';
import { DiffPreview } from './diff-preview.js';
import { defaultRevertMessage, invertChanges, planRevert } from './revert-plan.js';

/**
 * Takes back one revision's changes on the branch, keeping everything written since. The preview
 * applies the store's rule to the head's documents, so documents changed again since are named before
 * anything is sent; the write carries the previewed head as `expected_revision`.
 */
export function RevertDialog({
  scope,
  revision,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  /** The revision with its changes' contents. */
  readonly revision: LogEntry;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const defaultMessage = defaultRevertMessage(revision.message);
  const [message, setMessage] = useState(defaultMessage);
  const head = useStoreState(scope, {});
  const revert = useRevert();
  const headRevision = head.isPlaceholderData ? undefined : head.data?.revision;
  const omitted = revision.contents_omitted === true;
  const plan = useMemo(
    () =>
      omitted
        ? { changes: invertChanges(revision.changes), conflicts: [] }
        : head.data && !head.isPlaceholderData
          ? planRevert(revision.changes, head.data.objects)
          : undefined,
    [omitted, revision.changes, head.data, head.isPlaceholderData],
  );
  const moved = movedPastExpected(revert.error, revert.variables?.expectedRevision, headRevision, head.isFetching);
  const waiting = head.isPending ? 'Reverting once the preview is read…' : undefined;
  const canSubmit =
    waiting !== undefined || (!!plan && plan.changes.length > 0 && plan.conflicts.length === 0 && !head.isFetching);
  const submit = (): void =>
    revert.mutate(
      {
        scope,
        revision: revision.id,
        // Left as proposed, the store writes its own default, which also names the reverted revision.
        message: message === defaultMessage ? undefined : message,
        expectedRevision: headRevision,
      },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Reverted #${revision.id} on ${scope.branch}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="revert-dialog"
      title={`Revert #${revision.id} on ${scope.branch}`}
      description={`A new revision on ${scope.branch} takes back what #${revision.id} changed. Everything written since stays as it is.`}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={`Revert #${revision.id}`}
      confirmTestId="confirm-revert"
      busy={revert.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && <BranchMovedNotice branch={scope.branch} head={headRevision} refreshing={head.isFetching} />}
          {plan && plan.conflicts.length > 0 && (
            <ConflictList
              keys={plan.conflicts}
              text={`${plural(plan.conflicts.length, 'document')} #${revision.id} changed ${plan.conflicts.length === 1 ? 'has' : 'have'} changed again since on ${scope.branch}, so it cannot be reverted and nothing would be written. Revert the later revisions first (newest first), or apply the contents you want.`}
            />
          )}
          <DiffPreview
            changes={plan?.changes}
            error={head.error}
            summary={
              omitted
                ? 'Contents too large to load: the store checks each document when you confirm'
                : plan && plan.conflicts.length > 0
                  ? plan.changes.length > 0
                    ? `${plural(plan.changes.length, 'other document')} would change once nothing is in the way`
                    : ''
                  : undefined
            }
            emptyText={
              plan && plan.conflicts.length > 0
                ? 'Nothing can be reverted while the documents above are in the way.'
                : `${scope.branch} already has the documents #${revision.id} changed back as they were: nothing to revert.`
            }
          />
        </>
      }
      // A moved branch is the notice above; any other refusal (a conflict) is the store's own message.
      error={moved ? undefined : revert.error}
      errorTitle="Nothing was reverted"
    >
      <Field label="Message" htmlFor="revert-message">
        <TextInput id="revert-message" value={message} onChange={(event) => setMessage(event.target.value)} />
      </Field>
    </FormDialog>
  );
}
