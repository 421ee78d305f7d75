import { useDeleteTeam, useDeleteUser, useTeams, useUsers } from '../../../api/principals-queries.js';
import { ConfirmFooter, Dialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { showToast } from '../../../components/toast.js';

/** "1 user", "2 keys". */
const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Why the gateway would refuse to delete the team or user now (409), from the counts its list already
 * shows; undefined when nothing belongs to it, or while the list is still read.
 */
function stillHolding(counts: { readonly users?: number; readonly keys: number } | undefined): string | undefined {
  if (counts === undefined) return undefined;
  const left = [
    ...(counts.users ? [counted(counts.users, 'user')] : []),
    ...(counts.keys ? [counted(counts.keys, 'active key')] : []),
  ];
  return left.length ? left.join(' and ') : undefined;
}

/**
 * Deletes a team or user after confirmation, saying what goes for good. While users or active keys
 * still belong to it (the counts the list shows), Delete is disabled with the reason rather than sent
 * to be refused; a 409 the gateway still answers (one added meanwhile) is shown as it words it.
 */
export function DeletePrincipalDialog({
  kind,
  id,
  onClose,
  onDeleted,
  returnFocus,
}: {
  readonly kind: 'team' | 'user';
  readonly id: string;
  readonly onClose: () => void;
  /** Once the gateway deleted it and the lists no longer hold it. */
  readonly onDeleted?: () => void;
  /** Where focus goes when the row and its table are gone (see Dialog). */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const deleteTeam = useDeleteTeam();
  const deleteUser = useDeleteUser();
  const teams = useTeams();
  const users = useUsers();
  const mutation = kind === 'team' ? deleteTeam : deleteUser;
  const record =
    kind === 'team' ? teams.data?.data.find((team) => team.id === id) : users.data?.data.find((user) => user.id === id);
  const holding = stillHolding(record);
  // The gateway gives no count of these per team, so they are named without one.
  const description =
    kind === 'team'
      ? 'Its limits stop applying, and these go for good: its cached answers and the responses its keys stored (store: true). Its past usage stays in Usage under its id.'
      : 'Their limits stop applying. Their past usage stays in Usage under their id.';
  return (
    <Dialog
      testId="delete-principal-dialog"
      title={`Delete ${kind} “${id}”?`}
      description={description}
      onClose={onClose}
      returnFocus={returnFocus}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={() =>
            mutation.mutate(id, {
              onSuccess: () => {
                onDeleted?.();
                onClose();
                showToast(`Deleted ${kind} ${id}`);
              },
            })
          }
          variant="danger"
          busy={mutation.isPending}
          disabled={holding !== undefined}
          testId="confirm-delete-principal"
        >
          Delete {kind}
        </ConfirmFooter>
      }
    >
      {holding && (
        <p className="field-error" role="status" data-testid="delete-principal-blocked">
          {kind === 'team'
            ? `It cannot be deleted while ${holding} belong to it: move or delete the users and revoke or move the keys first.`
            : `They cannot be deleted while ${holding} belong to them: revoke or move the keys first.`}
        </p>
      )}
      {mutation.error && <ErrorMessage error={mutation.error} title={`Could not delete the ${kind}`} />}
    </Dialog>
  );
}
