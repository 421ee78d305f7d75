import { useDeleteTeam, useDeleteUser } from '../../../api/principals-queries.js';
import { ConfirmFooter, Dialog } from '../../../components/dialog.js';
import { ErrorMessage } from '../../../components/feedback.js';
import { showToast } from '../../../components/toast.js';

/**
 * Deletes a team or user after confirmation. The gateway refuses (409) while keys or users still
 * belong to it; its message says which, and is shown here as it words it.
 */
export function DeletePrincipalDialog({
  kind,
  id,
  onClose,
}: {
  readonly kind: 'team' | 'user';
  readonly id: string;
  readonly onClose: () => void;
}) {
  const deleteTeam = useDeleteTeam();
  const deleteUser = useDeleteUser();
  const mutation = kind === 'team' ? deleteTeam : deleteUser;
  return (
    <Dialog
      testId="delete-principal-dialog"
      title={`Delete ${kind} “${id}”?`}
      description={
        kind === 'team'
          ? 'Its limits stop applying. The gateway refuses while users or keys still belong to the team.'
          : 'Their limits stop applying. The gateway refuses while keys still belong to the user.'
      }
      onClose={onClose}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={() =>
            mutation.mutate(id, {
              onSuccess: () => {
                onClose();
                showToast(`Deleted ${kind} ${id}`);
              },
            })
          }
          variant="danger"
          busy={mutation.isPending}
          testId="confirm-delete-principal"
        >
          Delete {kind}
        </ConfirmFooter>
      }
    >
      {mutation.error && <ErrorMessage error={mutation.error} title={`Could not delete the ${kind}`} />}
    </Dialog>
  );
}
