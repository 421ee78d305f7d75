import type { ReactNode } from 'react';

/** Colour of a badge. */
export type Tone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

/** A small label: change types, statuses, scopes. */
export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  readonly tone?: Tone;
  readonly children: ReactNode;
  readonly title?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

/** A coloured dot before a status word. */
export function StatusDot({ tone }: { readonly tone: Tone }) {
  return <span className={`status-dot status-dot-${tone}`} aria-hidden="true" />;
}

/** A keyboard key, for hints. */
export function Kbd({ children }: { readonly children: ReactNode }) {
  return <kbd className="kbd">{children}</kbd>;
}
