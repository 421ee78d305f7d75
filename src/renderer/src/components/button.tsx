import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';

/** Visual weight of a button. */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

/**
 * A button; `icon` goes before the label. While `busy` (its request runs) it is `aria-disabled` and ignores
 * clicks, but is not `disabled`: a focused button that becomes disabled loses focus to the page's body in
 * Chromium, and the next Tab would start over at the top of the page.
 */
export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  busy = false,
  children,
  className = '',
  disabled,
  type = 'button',
  onClick,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  readonly ref?: Ref<HTMLButtonElement>;
  readonly variant?: ButtonVariant;
  readonly size?: 'sm' | 'md';
  readonly icon?: ReactNode;
  readonly busy?: boolean;
}) {
  const ignored = busy && !disabled;
  return (
    <button
      type={type}
      className={`btn btn-${variant} btn-${size} ${className}`}
      disabled={disabled}
      aria-disabled={ignored || undefined}
      aria-busy={busy || undefined}
      {...rest}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        // Also stops a submit button's form from being sent (Enter in one of its fields clicks it).
        if (ignored) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : icon}
      {children !== undefined && <span>{children}</span>}
    </button>
  );
}
