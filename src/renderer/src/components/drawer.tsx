import { useEffect, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons.js';

/** Whether focus is in `panel`, or nowhere (the page's body): closing the panel would lose it. */
function focusIsIn(panel: HTMLElement | null): boolean {
  const active = document.activeElement;
  return !active || active === document.body || Boolean(panel?.contains(active));
}

/**
 * A panel sliding over the right side of a screen; Esc closes it. Not modal: the list stays usable.
 * `onClose` learns whether focus was in the drawer (or nowhere), so the screen can give it back to
 * the list the drawer belongs to rather than leave it on the page's body.
 */
export function Drawer({
  title,
  onClose,
  children,
  actions,
  testId,
}: {
  readonly title: ReactNode;
  readonly onClose: (focusWasInside: boolean) => void;
  readonly children: ReactNode;
  readonly actions?: ReactNode;
  readonly testId?: string;
}) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) onClose(focusIsIn(panel.current));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside ref={panel} className="drawer" aria-label="Details" data-testid={testId}>
      <header className="drawer-header">
        <h2 className="drawer-title">{title}</h2>
        <div className="drawer-actions">
          {actions}
          <button
            type="button"
            className="icon-button"
            aria-label="Close details"
            onClick={() => onClose(focusIsIn(panel.current))}
          >
            <CloseIcon />
          </button>
        </div>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}
