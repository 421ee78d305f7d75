import { useSyncExternalStore } from 'react';
import { CheckIcon, CloseIcon } from './icons.js';

interface Toast {
  readonly id: number;
  readonly message: string;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = (): void => listeners.forEach((listener) => listener());

function dismiss(id: number): void {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Confirms a completed action for a few seconds ("Rolled back main: revision #14"). */
export function showToast(message: string): void {
  const id = nextId++;
  toasts = [...toasts, { id, message }];
  emit();
  setTimeout(() => dismiss(id), 5000);
}

/** Renders the toasts in a corner; polite live region for screen readers. */
export function Toaster() {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
  return (
    <div className="toaster" aria-live="polite">
      {current.map((toast) => (
        <div key={toast.id} className="toast" role="status">
          <CheckIcon className="toast-icon" />
          <span>{toast.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
