import { useRef, type ReactNode } from 'react';
import { Button } from './button.js';
import { ErrorMessage } from './feedback.js';
import { CloseIcon } from './icons.js';
import { useModalFocus } from './use-modal-focus.js';

/**
 * A modal dialog on the native `<dialog>` element: focus starts on its first field (or primary
 * action), is trapped inside, and goes back to what opened it on close; Esc closes it, the page
 * behind is inert.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  footer,
  wide = false,
  testId,
}: {
  readonly title: ReactNode;
  readonly description?: ReactNode;
  readonly onClose: () => void;
  readonly children?: ReactNode;
  readonly footer?: ReactNode;
  readonly wide?: boolean;
  readonly testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useModalFocus(ref);
  return (
    <dialog
      ref={ref}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-panel">
        <header className="dialog-header">
          <div>
            <h2 className="dialog-title">{title}</h2>
            {description && <p className="dialog-description">{description}</p>}
          </div>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <div className="dialog-body">{children}</div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </dialog>
  );
}

/** The usual dialog footer: Cancel, then the action (primary, or danger for what cannot be undone). */
export function ConfirmFooter({
  onCancel,
  onConfirm,
  children,
  variant = 'primary',
  busy = false,
  disabled = false,
  testId,
}: {
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
  readonly children: ReactNode;
  readonly variant?: 'primary' | 'danger';
  readonly busy?: boolean;
  readonly disabled?: boolean;
  readonly testId?: string;
}) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button variant={variant} busy={busy} disabled={disabled} onClick={onConfirm} data-testid={testId}>
        {children}
      </Button>
    </>
  );
}

/**
 * A dialog around a form: Enter in a field submits like the confirm button, and the mutation's error
 * (when it failed) is shown under the form.
 */
export function FormDialog({
  onClose,
  onSubmit,
  confirmLabel,
  confirmTestId,
  busy = false,
  error,
  errorTitle,
  children,
  ...dialog
}: {
  readonly title: ReactNode;
  readonly description?: ReactNode;
  readonly wide?: boolean;
  readonly testId?: string;
  readonly onClose: () => void;
  readonly onSubmit: () => void;
  readonly confirmLabel: ReactNode;
  readonly confirmTestId?: string;
  readonly busy?: boolean;
  readonly error?: unknown;
  readonly errorTitle?: string;
  readonly children: ReactNode;
}) {
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      footer={
        <ConfirmFooter onCancel={onClose} onConfirm={onSubmit} busy={busy} testId={confirmTestId}>
          {confirmLabel}
        </ConfirmFooter>
      }
    >
      <form
        className="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {error ? <ErrorMessage error={error} title={errorTitle ?? 'Could not save'} /> : null}
    </Dialog>
  );
}
