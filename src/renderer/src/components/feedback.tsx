import type { ReactNode } from 'react';
import { ApiError } from '../api/http.js';
import { AlertIcon } from './icons.js';

/** A spinner with an optional label, for content that is loading. */
export function Loading({ label = 'Loading…' }: { readonly label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Shows a failed request with the server's own message. */
export function ErrorMessage({
  error,
  title,
  action,
}: {
  readonly error: unknown;
  readonly title?: string;
  readonly action?: ReactNode;
}) {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-message" role="alert">
      <AlertIcon className="error-message-icon" />
      <div className="error-message-body">
        <div className="error-message-title">
          {title ?? (apiError && apiError.status ? `Request failed (${apiError.status})` : 'Something went wrong')}
        </div>
        <div className="error-message-text">{message}</div>
        {apiError?.requestId && <div className="error-message-meta">request id {apiError.requestId}</div>}
      </div>
      {action}
    </div>
  );
}

/** What to show where a list has nothing yet: what it is for and how to fill it. */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  readonly icon?: ReactNode;
  readonly title: string;
  readonly children?: ReactNode;
  readonly action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      {icon && <div className="empty-state-icon">{icon}</div>}
      <div className="empty-state-title">{title}</div>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}
