import { useQuery } from '@tanstack/react-query';
import { revisionResponseSchema } from '../../../../../shared/store-api.js';
import { useApi } from '../../../api/api-context.js';
import { queryKeys } from '../../../api/query-keys.js';

/**
 * One revision with at most one of its changes: what says which branch it is on, without its whole
 * list of changes and their contents (a revision of thousands of large documents is megabytes).
 */
export function useRevisionBranch(namespace: string, id: number | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.revision(namespace, id ?? 0), 'first-change'],
    enabled: id !== undefined && id > 0,
    queryFn: ({ signal }) =>
      api.request('store', `/v1/revisions/${id}`, {
        query: { namespace, limit: 1 },
        schema: revisionResponseSchema,
        signal,
      }),
  });
}
