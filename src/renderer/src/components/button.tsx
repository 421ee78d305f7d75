import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

/** Visual weight of a button. */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

/** A button; `icon` goes before the label, `busy` disables it while a request runs. */
export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  busy = false,
  children,
  className = '',
  disabled,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  readonly ref?: Ref<HTMLButtonElement>;
  readonly variant?: ButtonVariant;
  readonly size?: 'sm' | 'md';
  readonly icon?: ReactNode;
  readonly busy?: boolean;
}) {
  return (
    <button
      type={type}
      className={`btn btn-${variant} btn-${size} ${className}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : icon}
      {children !== undefined && <span>{children}</span>}
    </button>
  );
}
