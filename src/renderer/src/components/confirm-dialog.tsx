import type { ReactNode } from 'react';
import { ConfirmFooter, Dialog } from './dialog.js';

/**
 * Asks before an action that cannot be undone from the screen (a reset of settings edited here, a
 * purge): what it does in `description` (details that need more than a sentence, such as a list, in
 * `children`), the action named on its button, Cancel beside it.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  onConfirm,
  onClose,
  testId,
  returnFocus,
  children,
}: {
  readonly title: string;
  readonly description: ReactNode;
  readonly confirmLabel: string;
  readonly onConfirm: () => void;
  readonly onClose: () => void;
  readonly testId: string;
  /** Where focus goes on close when the button that opened the dialog is gone. */
  readonly returnFocus?: () => HTMLElement | null | undefined;
  readonly children?: ReactNode;
}) {
  return (
    <Dialog
      testId={testId}
      title={title}
      description={description}
      onClose={onClose}
      returnFocus={returnFocus}
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
    >
      {children}
    </Dialog>
  );
}
