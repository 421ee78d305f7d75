import { useQuery } from '@tanstack/react-query';
import { logResponseSchema } from '../../../shared/store-api.js';
import { useApi } from './api-context.js';
import type { ApiClient } from './http.js';
import { queryKeys, type StoreScope } from './query-keys.js';

/** The largest page the store's log answers. */
const PAGE = 1000;

/** How many revisions a branch holds, counted from the head the count started at. */
export interface BranchRevisions {
  /** The head the revisions were counted from: 0 when the branch has none. */
  readonly head: number;
  readonly count: number;
}

/** Counts a branch's revisions by paging through its whole log (the store keeps no count per branch). */
export async function countBranchRevisions(
  api: ApiClient,
  scope: StoreScope,
  signal?: AbortSignal,
): Promise<BranchRevisions> {
  let head = 0;
  let count = 0;
  let after: number | undefined;
  do {
    const page = await api.request('store', '/v1/log', {
      query: { namespace: scope.namespace, branch: scope.branch, limit: PAGE, after },
      schema: logResponseSchema,
      signal,
    });
    head ||= page.entries[0]?.id ?? 0;
    count += page.entries.length;
    after = page.next_cursor;
  } while (after !== undefined);
  return { head, count };
}

/**
 * The number of revisions a branch holds with the head it was counted from, so a confirmation can
 * say exactly what goes and send that head as `expected_revision`. It lives under the branch's log
 * key, so every write to the namespace counts again.
 */
export function useBranchRevisions(scope: StoreScope) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.log(scope), '#count'],
    queryFn: ({ signal }) => countBranchRevisions(api, scope, signal),
  });
}
