import { useId, useRef, type ReactNode } from 'react';
import { Button } from './button.js';
import { ErrorMessage } from './feedback.js';
import { CloseIcon } from './icons.js';
import { useFocusFirstProblem } from './use-focus-first-problem.js';
import { useModalFocus } from './use-modal-focus.js';

/**
 * A modal dialog on the native `<dialog>` element: focus starts on its first field (or primary
 * action), is trapped inside, and goes back to what opened it on close; Esc closes it (unless
 * `explicitClose`), the page behind is inert.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  footer,
  wide = false,
  testId,
  returnFocus,
  explicitClose = false,
}: {
  readonly title: ReactNode;
  readonly description?: ReactNode;
  readonly onClose: () => void;
  readonly children?: ReactNode;
  readonly footer?: ReactNode;
  readonly wide?: boolean;
  readonly testId?: string;
  /** Where focus goes on close when what opened the dialog is gone by then (its action removed it). */
  readonly returnFocus?: () => HTMLElement | null | undefined;
  /**
   * Only its buttons close it, not Esc or a click outside: for content that is gone once closed (a new
   * key's secret), where a stray key press would lose it.
   */
  readonly explicitClose?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useModalFocus(ref, returnFocus);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (!explicitClose) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current && !explicitClose) onClose();
      }}
    >
      <div className="dialog-panel">
        <header className="dialog-header">
          <div>
            <h2 className="dialog-title" id={titleId}>
              {title}
            </h2>
            {description && (
              <p className="dialog-description" id={descriptionId}>
                {description}
              </p>
            )}
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

/** What the footer's action does: run `onConfirm`, or submit the `<form>` with the id `form`. */
type ConfirmAction =
  { readonly onConfirm: () => void; readonly form?: never } | { readonly form: string; readonly onConfirm?: never };

/**
 * The usual dialog footer: Cancel (or `cancelLabel`), then the action (primary, or danger for what cannot be undone).
 * Tied to a form (`form`), the action is that form's submit button though it sits outside it, so
 * Enter in any of the form's fields presses it, and does nothing while it is disabled.
 */
export function ConfirmFooter({
  onCancel,
  cancelLabel = 'Cancel',
  onConfirm,
  form,
  children,
  variant = 'primary',
  busy = false,
  disabled = false,
  testId,
}: ConfirmAction & {
  readonly onCancel: () => void;
  readonly cancelLabel?: ReactNode;
  readonly children: ReactNode;
  readonly variant?: 'primary' | 'danger';
  readonly busy?: boolean;
  readonly disabled?: boolean;
  readonly testId?: string;
}) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        variant={variant}
        busy={busy}
        disabled={disabled}
        {...(form === undefined ? { onClick: onConfirm } : { type: 'submit', form })}
        data-testid={testId}
      >
        {children}
      </Button>
    </>
  );
}

/** The request a form sends: its failure, and how to forget it. A TanStack Query mutation is one. */
export interface FormRequest {
  readonly error: unknown;
  readonly reset: () => void;
}

/**
 * A dialog around a form: Enter in a field submits as the confirm button does (only while it is
 * enabled), a refused submit moves focus to the first field with a problem, `after` follows the form
 * (a preview, a notice), and the request's failure (`request.error`, or `error`) is shown last.
 * `layout="grid"` puts the fields in two columns; `stack` one under the other.
 */
export function FormDialog({
  onClose,
  onSubmit,
  confirmLabel,
  confirmTestId,
  busy = false,
  disabled = false,
  layout = 'grid',
  after,
  request,
  error = request?.error,
  errorTitle,
  children,
  ...dialog
}: {
  readonly title: ReactNode;
  readonly description?: ReactNode;
  readonly wide?: boolean;
  readonly testId?: string;
  readonly returnFocus?: () => HTMLElement | null | undefined;
  readonly onClose: () => void;
  readonly onSubmit: () => void;
  readonly confirmLabel: ReactNode;
  readonly confirmTestId?: string;
  readonly busy?: boolean;
  readonly disabled?: boolean;
  readonly layout?: 'grid' | 'stack';
  readonly after?: ReactNode;
  /**
   * The request the form sends. Its refusal spoke of the form as it was sent, so it is forgotten once a
   * field changes or the form is submitted again (a check of the form's own may then refuse it first).
   */
  readonly request?: FormRequest;
  /** The failure shown, when it is not simply `request.error` (or the form sends no request of its own). */
  readonly error?: unknown;
  readonly errorTitle?: string;
  readonly children: ReactNode;
}) {
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const submitted = useFocusFirstProblem(formRef);
  const forgetRefusal = (): void => {
    if (request?.error) request.reset();
  };
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      footer={
        <ConfirmFooter onCancel={onClose} form={formId} busy={busy} disabled={disabled} testId={confirmTestId}>
          {confirmLabel}
        </ConfirmFooter>
      }
    >
      <form
        ref={formRef}
        id={formId}
        className={layout === 'grid' ? 'form-grid' : 'form-stack'}
        // Any field's change reaches the form (React's change events bubble).
        onChange={forgetRefusal}
        onSubmit={(event) => {
          event.preventDefault();
          // Enter does nothing while the confirm button is disabled; this also holds for a scripted submit.
          if (disabled || busy) return;
          forgetRefusal();
          onSubmit();
          submitted();
        }}
      >
        {children}
      </form>
      {after}
      {error ? <ErrorMessage error={error} title={errorTitle ?? 'Could not save'} /> : null}
    </Dialog>
  );
}
