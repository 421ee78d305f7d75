import type { ReactNode } from 'react';
import { ApiError } from '../api/http.js';
import { Button } from './button.js';
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

/**
 * Shows a failed request with the server's own message. With `onRetry`, a Retry button asks again
 * (a failed read is not asked again on its own, so it would stay on screen after the server recovers).
 */
export function ErrorMessage({
  error,
  title,
  action,
  onRetry,
  retrying = false,
}: {
  readonly error: unknown;
  readonly title?: string;
  readonly action?: ReactNode;
  readonly onRetry?: () => void;
  /** The retry is on its way: its button shows so rather than take a second press. */
  readonly retrying?: boolean;
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
      {onRetry && (
        <Button size="sm" busy={retrying} onClick={onRetry}>
          Retry
        </Button>
      )}
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
