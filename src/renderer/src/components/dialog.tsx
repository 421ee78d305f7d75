import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from './button.js';
import { ErrorMessage } from './feedback.js';
import { CloseIcon } from './icons.js';
import { useFocusFirstProblem } from './use-focus-first-problem.js';
import { useModalFocus } from './use-modal-focus.js';

/** How a dialog's footer tells the dialog that its action's request is running (see {@link Dialog}). */
const ActionRunning = createContext<((running: boolean) => void) | undefined>(undefined);

/**
 * A modal dialog on the native `<dialog>` element: focus starts on its first field (or primary
 * action), is trapped inside, and goes back to what opened it on close; Esc closes it (unless
 * `explicitClose`), the page behind is inert. While its action's request runs (a {@link ConfirmFooter}
 * inside it is `busy`) nothing closes it, not Esc, Close, Cancel nor a click outside: the request
 * would still be carried out, so the dialog stays until its answer, which it shows or acts on.
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
  const [running, setRunning] = useState(false);
  useModalFocus(ref, returnFocus);
  useLayoutEffect(() => {
    if (!running) return;
    // Refusing the key itself, not only the dialog's cancel event: Chrome closes a modal dialog on a
    // second Esc once its cancel was refused without a click in between. Focus may be on the page's
    // body by now (the pressed button was disabled), so the whole document is watched.
    const refuseEscape = (event: globalThis.KeyboardEvent): void => {
      if (event.key === 'Escape') event.preventDefault();
    };
    document.addEventListener('keydown', refuseEscape, true);
    return () => document.removeEventListener('keydown', refuseEscape, true);
  }, [running]);
  const closable = !explicitClose && !running;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-busy={running || undefined}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (closable) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current && closable) onClose();
      }}
    >
      <div className="dialog-panel">
        {/* A div, not a header: inside the dialog a header would be a second banner landmark of the page. */}
        <div className="dialog-header">
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
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={running}>
            <CloseIcon />
          </button>
        </div>
        <ActionRunning value={setRunning}>
          <div className="dialog-body">{children}</div>
          {footer && <footer className="dialog-footer">{footer}</footer>}
        </ActionRunning>
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
 * Enter in any of the form's fields presses it, and does nothing while it is disabled. While `busy`
 * (its request runs) Cancel is disabled and the dialog around it cannot be closed; `waiting` shows the
 * action as on its way (a submit held until the reads it needs arrive) and leaves Cancel free.
 */
export function ConfirmFooter({
  onCancel,
  cancelLabel = 'Cancel',
  onConfirm,
  form,
  children,
  variant = 'primary',
  busy = false,
  waiting = false,
  disabled = false,
  testId,
}: ConfirmAction & {
  readonly onCancel: () => void;
  readonly cancelLabel?: ReactNode;
  readonly children: ReactNode;
  readonly variant?: 'primary' | 'danger';
  readonly busy?: boolean;
  readonly waiting?: boolean;
  readonly disabled?: boolean;
  readonly testId?: string;
}) {
  const reportRunning = useContext(ActionRunning);
  // A layout effect: the dialog refuses to close from the same commit that shows the request running.
  useLayoutEffect(() => {
    if (!busy || !reportRunning) return;
    reportRunning(true);
    return () => reportRunning(false);
  }, [busy, reportRunning]);
  return (
    <>
      <Button variant="ghost" onClick={onCancel} disabled={busy}>
        {cancelLabel}
      </Button>
      <Button
        variant={variant}
        busy={busy || waiting}
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

/** Input types in which Enter does not submit the form (all others do: the browser's implicit submission). */
const NOT_SUBMITTING_ON_ENTER = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

const submitsOnEnter = (target: EventTarget): boolean =>
  target instanceof HTMLInputElement && !NOT_SUBMITTING_ON_ENTER.has(target.type);

/**
 * A dialog around a form: Enter in a field submits as the confirm button does (only while it is
 * enabled), a refused submit moves focus to the first field with a problem, `after` follows the form
 * (a preview, a notice), and the request's failure (`request.error`, or `error`) is shown last.
 * `layout="grid"` puts the fields in two columns; `stack` one under the other.
 *
 * While reads the submit depends on have not arrived (a preview, a list the form checks against),
 * the dialog passes `waiting`: the confirm button is disabled, but a submit (Enter) the form allows is
 * not dropped. It is remembered, `waiting` says so, and it is carried out once the reads are in if the
 * form still allows it then (else focus goes to the problem they revealed, as after a refused submit).
 * A field changed meanwhile forgets it: it spoke of the form as it was.
 */
export function FormDialog({
  onClose,
  onSubmit,
  confirmLabel,
  confirmTestId,
  busy = false,
  disabled = false,
  waiting,
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
  /** The form cannot be sent as it is, given what is known (while `waiting`, without what is still being read). */
  readonly disabled?: boolean;
  /**
   * Set while reads the submit needs are on their way: what the dialog says of a submit held for them,
   * as "Rolling back once the preview is read…".
   */
  readonly waiting?: string;
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
  const [held, setHeld] = useState(false);
  const forgetRefusal = (): void => {
    if (request?.error) request.reset();
  };
  const send = (): void => {
    forgetRefusal();
    onSubmit();
    submitted();
  };
  // The held submit is carried out by an effect, with the form as the render that brought the reads has it.
  const latest = useRef({ send, submitted });
  useLayoutEffect(() => {
    latest.current = { send, submitted };
  });
  useEffect(() => {
    if (!held || waiting !== undefined) return;
    setHeld(false);
    if (!disabled && !busy) latest.current.send();
    else latest.current.submitted();
  }, [held, waiting, disabled, busy]);
  const attempt = (): void => {
    // Enter does nothing while the form cannot be sent; this also holds for a scripted submit.
    if (disabled || busy) return;
    if (waiting !== undefined) setHeld(true);
    else send();
  };
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          form={formId}
          busy={busy}
          waiting={held}
          disabled={disabled || waiting !== undefined}
          testId={confirmTestId}
        >
          {confirmLabel}
        </ConfirmFooter>
      }
    >
      <form
        ref={formRef}
        id={formId}
        className={layout === 'grid' ? 'form-grid' : 'form-stack'}
        // Any field's change reaches the form (React's change events bubble).
        onChange={() => {
          forgetRefusal();
          setHeld(false);
        }}
        // The confirm button is disabled while waiting, so the browser would drop Enter: it is held instead.
        onKeyDown={(event: KeyboardEvent<HTMLFormElement>) => {
          if (waiting === undefined || event.key !== 'Enter' || event.nativeEvent.isComposing) return;
          if (!submitsOnEnter(event.target)) return;
          event.preventDefault();
          attempt();
        }}
        onSubmit={(event) => {
          event.preventDefault();
          attempt();
        }}
      >
        {children}
      </form>
      {held && waiting !== undefined && (
        <p className="muted" role="status" data-testid="submit-waiting">
          {waiting}
        </p>
      )}
      {after}
      {error ? <ErrorMessage error={error} title={errorTitle ?? 'Could not save'} /> : null}
    </Dialog>
  );
}
