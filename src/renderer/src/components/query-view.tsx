import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorMessage, Loading } from './feedback.js';

/**
 * A query's three states in one place: a spinner while pending, the server's error with Retry, else
 * the content, or what `empty` returns when the data has nothing to show (falsy: not empty).
 */
export function QueryView<T>({
  query,
  errorTitle,
  empty,
  children,
}: {
  readonly query: UseQueryResult<T>;
  readonly errorTitle: string;
  readonly empty?: (data: T) => ReactNode;
  readonly children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <ErrorMessage
        error={query.error}
        title={errorTitle}
        // Only this read is asked again: the rest of the screen, and whatever was typed there, stays.
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  const emptyView = empty?.(query.data);
  return <>{emptyView || children(query.data)}</>;
}
