import type { ReactNode } from 'react';
import { ConfirmFooter, Dialog } from './dialog.js';

/**
 * Asks before an action that cannot be undone from the screen (a reset of settings edited here, a
 * purge): what it does in `description`, the action named on its button, Cancel beside it.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  onConfirm,
  onClose,
  testId,
}: {
  readonly title: string;
  readonly description: ReactNode;
  readonly confirmLabel: string;
  readonly onConfirm: () => void;
  readonly onClose: () => void;
  readonly testId: string;
}) {
  return (
    <Dialog
      testId={testId}
      title={title}
      description={description}
      onClose={onClose}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={() => {
            onClose();
            onConfirm();
          }}
          variant="danger"
          testId={`${testId}-confirm`}
        >
          {confirmLabel}
        </ConfirmFooter>
      }
    />
  );
}
