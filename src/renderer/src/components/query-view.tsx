import { useIsFetching, useQueryClient, type Query, type UseQueryResult } from '@tanstack/react-query';
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

/**
 * Retry for a read whose error a component is handed without its query (a dialog's preview): asks
 * again the reads that failed with that very error, and says while they are on their way. Only those:
 * the rest of the screen, and whatever was typed there, stays.
 */
export function useRetryOfFailedRead(error: unknown): {
  /** Undefined when no read failed with it (an error of the component's own): nothing to ask again. */
  readonly retry: (() => void) | undefined;
  readonly retrying: boolean;
} {
  const client = useQueryClient();
  const failedWithIt = (query: Query): boolean => error != null && query.state.error === error;
  const retrying = useIsFetching({ predicate: failedWithIt }) > 0;
  const failed = client.getQueryCache().findAll({ predicate: failedWithIt }).length > 0;
  return { retry: failed ? () => void client.refetchQueries({ predicate: failedWithIt }) : undefined, retrying };
}
