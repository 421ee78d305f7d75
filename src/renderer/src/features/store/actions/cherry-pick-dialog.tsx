import { useState } from 'react';
import type { LogEntry } from '../../../../../shared/store-api.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useCherryPick } from '../../../api/store-mutations.js';
import { FormDialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextInput } from '../../../components/field.js';
import { showNewRevision } from './action-result.js';
import { BranchMovedNotice, isBranchMoved, movedPastExpected } from './branch-moved.js';
import { defaultCherryPickMessage, useCherryPickPreview } from './cherry-pick-plan.js';
import { DiffPreview } from './diff-preview.js';

/**
 * Makes on the scope's branch what one revision of another branch changed, and nothing else of that
 * branch, as `git cherry-pick`. The preview is the store's dry run, so it lists exactly the documents
 * the cherry-pick would write, or shows its refusal (documents in the way, or a revision the branch
 * already has) before anything is sent, with confirm disabled. The write carries the previewed head as
 * `expected_revision`.
 */
export function CherryPickDialog({
  scope,
  revision,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  readonly revision: LogEntry;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const [message, setMessage] = useState('');
  const { preview, head, readingHead } = useCherryPickPreview(scope, revision.id);
  const cherryPick = useCherryPick();
  // A refusal the preview reads again stands, whatever an earlier read of the same head answered.
  const previewed = preview.error ? undefined : preview.data;
  const refusal = isBranchMoved(preview.error) ? preview.error : undefined;
  const refreshing = preview.isFetching || readingHead;
  // The branch list's head, not the preview's: a branch that moved into a conflict still says it moved.
  const moved = movedPastExpected(cherryPick.error, cherryPick.variables?.expectedRevision, head, refreshing);
  const waiting = preview.isPending ? 'Cherry-picking once the preview is read…' : undefined;
  const canSubmit = waiting !== undefined || (!!previewed && !previewed.noop && !refreshing);
  const submit = (): void =>
    cherryPick.mutate(
      {
        scope,
        revision: revision.id,
        // Left empty, the store writes its own, which also names the revision and branch picked from.
        message: message || undefined,
        expectedRevision: previewed?.revision,
      },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Cherry-picked #${revision.id} onto ${scope.branch}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="cherry-pick-dialog"
      title={`Cherry-pick #${revision.id} onto ${scope.branch}`}
      description={`A new revision on ${scope.branch} makes what #${revision.id} changed on ${revision.branch}, and nothing else of ${revision.branch}. A document that is different on ${scope.branch} from what #${revision.id} found stops the cherry-pick, and nothing is written.`}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel={`Cherry-pick #${revision.id}`}
      confirmTestId="confirm-cherry-pick"
      busy={cherryPick.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && <BranchMovedNotice branch={scope.branch} head={head} refreshing={refreshing} />}
          {refusal ? (
            <ErrorMessage error={refusal} title={`#${revision.id} cannot be cherry-picked onto ${scope.branch}`} />
          ) : (
            <DiffPreview
              title="Documents the cherry-pick writes"
              changes={previewed?.changes}
              error={preview.error}
              summary={
                previewed?.contents_omitted
                  ? 'Contents too large to load: the documents it writes are listed by name'
                  : undefined
              }
              emptyText={`${scope.branch} already has what #${revision.id} changed: nothing to cherry-pick.`}
            />
          )}
        </>
      }
      // A moved branch is the notice above; any other refusal is the store's own message.
      error={moved ? undefined : cherryPick.error}
      errorTitle="Nothing was cherry-picked"
    >
      <Field
        label="Message"
        htmlFor="cherry-pick-message"
        hint="Left empty, the store records the revision’s own message and where it was picked from."
      >
        <TextInput
          id="cherry-pick-message"
          placeholder={defaultCherryPickMessage(revision)}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
