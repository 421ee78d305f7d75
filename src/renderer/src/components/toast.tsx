import { useSyncExternalStore, type FocusEvent } from 'react';
import { CheckIcon, CloseIcon } from './icons.js';
import { currentToasts, dismissToast, holdToast, releaseToast, subscribeToasts } from './toast-store.js';

export { showToast } from './toast-store.js';

/** Renders the toasts in a corner; polite live region for screen readers. A toast stays while hovered or focused. */
export function Toaster() {
  const current = useSyncExternalStore(subscribeToasts, currentToasts);
  // Focus moving between the toast's own parts (text, Dismiss) still holds it.
  const focusLeft = (event: FocusEvent<HTMLElement>): boolean =>
    !(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget));
  return (
    <div className="toaster" aria-live="polite">
      {current.map((toast) => (
        <div
          key={toast.id}
          className="toast"
          role="status"
          onPointerEnter={() => holdToast(toast.id, 'pointer')}
          onPointerLeave={() => releaseToast(toast.id, 'pointer')}
          onFocus={() => holdToast(toast.id, 'focus')}
          onBlur={(event) => {
            if (focusLeft(event)) releaseToast(toast.id, 'focus');
          }}
        >
          <CheckIcon className="toast-icon" />
          <span>{toast.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
