import type { ReactNode } from 'react';

/** A screen's title bar: title, a line of context, and actions on the right. */
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
        <h1 className="page-title">{title}</h1>
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
