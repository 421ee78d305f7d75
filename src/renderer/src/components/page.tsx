import type { ReactNode } from 'react';

/**
 * A screen's title bar: title, a line of context, and actions on the right. The title is where focus
 * lands when the screen is opened from another (see `focusScreenStart`), so it takes focus from script only.
 */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  readonly title: ReactNode;
  readonly subtitle?: ReactNode;
  readonly actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        <h1 className="page-title" tabIndex={-1}>
          {title}
        </h1>
        {subtitle && <div className="page-subtitle">{subtitle}</div>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

/** The scrolling body of a screen with the usual padding. */
export function PageBody({ children, flush = false }: { readonly children: ReactNode; readonly flush?: boolean }) {
  return <div className={flush ? 'page-body page-body-flush' : 'page-body'}>{children}</div>;
}
