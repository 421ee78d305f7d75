import { useEffect, type ReactNode } from 'react';
import { CloseIcon } from './icons.js';

/** A panel sliding over the right side of a screen; Esc closes it. Not modal: the list stays usable. */
export function Drawer({
  title,
  onClose,
  children,
  actions,
  testId,
}: {
  readonly title: ReactNode;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly actions?: ReactNode;
  readonly testId?: string;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="drawer" aria-label="Details" data-testid={testId}>
      <header className="drawer-header">
        <h2 className="drawer-title">{title}</h2>
        <div className="drawer-actions">
          {actions}
          <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}
