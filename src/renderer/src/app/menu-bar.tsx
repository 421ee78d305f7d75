import type { Ref } from 'react';

/** Three lines: the usual mark of a menu that opens. */
function MenuIcon() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
    </svg>
  );
}

/** The bar above the screen in a narrow window, whose Menu button shows or hides the sidebar. */
export function MenuBar({
  open,
  controls,
  onToggle,
  toggleRef,
}: {
  readonly open: boolean;
  readonly controls: string;
  readonly onToggle: () => void;
  readonly toggleRef: Ref<HTMLButtonElement>;
}) {
  return (
    <div className="menu-bar">
      <button
        ref={toggleRef}
        type="button"
        className="icon-button"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={controls}
        onClick={onToggle}
      >
        <MenuIcon />
      </button>
      <span className="brand-name">Gatehouse</span>
    </div>
  );
}
