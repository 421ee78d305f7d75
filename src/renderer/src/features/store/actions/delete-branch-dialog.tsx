import { useState } from 'react';
import type { BranchDeleteResponse } from '../../../../../shared/store-api.js';
import { useBranchRevisions } from '../../../api/branch-revisions.js';
import { ApiError } from '../../../api/http.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useDeleteBranch } from '../../../api/store-mutations.js';
import { useBranches, useCheckpoints } from '../../../api/store-queries.js';
import { href, Link } from '../../../app/router.js';
import { ConfirmFooter, Dialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { Field, TextInput } from '../../../components/field.js';
import { AlertIcon } from '../../../components/icons.js';
import { plural } from '../../../lib/format.js';

/**
 * Confirms deleting a branch with its whole history. It counts the branch's revisions first and
 * sends the head it counted from as `expected_revision`, so a branch that moved after the dialog
 * opened is refused (409) rather than deleted unseen; the count is then made again against the new
 * head. A checkpoint known to point into the branch is named before anything is sent (the store
 * would refuse); the store's other refusals (a branch based on it) are shown as it words them.
 * Deleting `main` (where a request naming no branch writes) or the namespace's last branch (the
 * namespace goes with it) asks for the branch's name to be typed, as GitHub does for a repository.
 */
export function DeleteBranchDialog({
  scope,
  name,
  onDeleted,
  onClose,
  returnFocus,
}: {
  /** The screen's scope: its namespace holds the branch. */
  readonly scope: StoreScope;
  readonly name: string;
  readonly onDeleted: (result: BranchDeleteResponse) => void;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null | undefined;
}) {
  const branch = { namespace: scope.namespace, branch: name };
  const revisions = useBranchRevisions(branch);
  const checkpoints = useCheckpoints(scope.namespace);
  const remove = useDeleteBranch();
  const branches = useBranches(scope);
  const [typed, setTyped] = useState('');
  const others = branches.data?.branches.filter((listed) => listed.name !== name);
  const last = others?.length === 0;
  // Until the list is read the branch may be the last: ask for the name rather than risk the namespace.
  const needsName = name === DEFAULT_BRANCH || others === undefined || last;
  const named = !needsName || typed === name;
  const counted = revisions.data;
  const refused = remove.error instanceof ApiError && remove.error.status === 409;
  const sentHead = remove.variables?.expectedRevision;
  // Known once the count was made again after the refusal: the head is no longer the one confirmed.
  const moved = refused && !revisions.isFetching && counted !== undefined && counted.head !== sentHead;
  const gone = !revisions.isFetching && counted?.head === 0;
  // The store keeps a branch a checkpoint points into: say so before the user confirms, not after.
  const holding = (checkpoints.data?.checkpoints ?? []).filter((cp) => cp.branch === name);
  // Never confirm against a count that is being made again, nor what the store is known to refuse.
  const canDelete = !!counted && !gone && !revisions.isFetching && holding.length === 0 && named;
  const submit = (): void =>
    remove.mutate(
      { namespace: scope.namespace, name, expectedRevision: counted?.head },
      // A refusal may come from a checkpoint made since the list was read: read it again.
      { onSuccess: (result) => onDeleted(result), onError: () => void checkpoints.refetch() },
    );
  const openCheckpoints = (
    <Link to={href('store/checkpoints', { ns: scope.namespace, branch: scope.branch })}>Open Checkpoints</Link>
  );
  return (
    <Dialog
      testId="delete-branch-dialog"
      title={`Delete branch “${name}”?`}
      description={whatGoes(name, counted, revisions.isPending, gone)}
      onClose={onClose}
      returnFocus={returnFocus}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={submit}
          variant="danger"
          busy={remove.isPending}
          disabled={!canDelete}
          testId="confirm-delete-branch"
        >
          Delete branch
        </ConfirmFooter>
      }
    >
      {last && !gone && (
        <div className="notice notice-warning" role="status" data-testid="namespace-goes">
          <AlertIcon />
          <span>
            {`${name} is the last branch of ${scope.namespace}: deleting it deletes the namespace ${scope.namespace} ` +
              `with all its history, and it is no longer listed. This cannot be undone.`}
          </span>
        </div>
      )}
      {needsName && !gone && (
        <Field
          label={`Type ${name} to confirm`}
          htmlFor="delete-branch-name"
          hint={
            last
              ? undefined
              : name === DEFAULT_BRANCH
                ? `${name} is the branch a request naming no branch reads and writes.`
                : branches.error
                  ? `The branches of ${scope.namespace} could not be listed, so ${name} may be its last.`
                  : `Checking whether ${name} is the last branch of ${scope.namespace}…`
          }
        >
          <TextInput
            id="delete-branch-name"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            data-testid="delete-branch-name"
          />
        </Field>
      )}
      {revisions.error && <ErrorMessage error={revisions.error} title={`Could not count the revisions of ${name}`} />}
      {remove.error ? (
        <ErrorMessage
          error={remove.error}
          title={`Could not delete ${name}`}
          action={refused && holding.length > 0 && openCheckpoints}
        />
      ) : (
        holding.length > 0 && (
          <div className="notice notice-warning" role="status" data-testid="branch-held">
            <AlertIcon />
            <span>
              {`${holding.length === 1 ? 'Checkpoint' : 'Checkpoints'} ${holding.map((cp) => `“${cp.name}”`).join(', ')} ` +
                `${holding.length === 1 ? 'points' : 'point'} into ${name}, and the store keeps a branch a checkpoint ` +
                `points into: delete or move ${holding.length === 1 ? 'it' : 'them'} first. `}
              {openCheckpoints}
            </span>
          </div>
        )
      )}
      {moved && counted && (
        <div className="notice notice-warning" role="status" data-testid="branch-moved">
          <AlertIcon />
          <span>
            {`${name} moved to #${counted.head} after this dialog opened (a write from elsewhere), so nothing was deleted. The count above is for the new head: check it, then delete again.`}
          </span>
        </div>
      )}
    </Dialog>
  );
}

/** The branch a request naming none reads and writes. */
const DEFAULT_BRANCH = 'main';

/** What the confirmation says goes: the branch, its history counted from its head, and that the name is freed. */
function whatGoes(
  name: string,
  counted: { readonly head: number; readonly count: number } | undefined,
  counting: boolean,
  gone: boolean,
): string {
  if (counting) return `Counting the revisions of ${name}…`;
  if (gone) return `${name} no longer exists: nothing to delete.`;
  if (!counted) return `Deletes ${name} and all its history. This cannot be undone.`;
  return (
    `Deletes ${name} and all its history: ${plural(counted.count, 'revision')} from its head #${counted.head} ` +
    `back to its first, with their changes. This cannot be undone. The name ${name} becomes free: ` +
    `writing to it again starts a new, empty branch.`
  );
}
