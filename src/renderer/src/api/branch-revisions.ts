import { useQuery } from '@tanstack/react-query';
import { logResponseSchema, type LogResponse } from '../../../shared/store-api.js';
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

/** One page of a branch's log, keys and types only: a count needs no contents. */
function readLogPage(
  api: ApiClient,
  scope: StoreScope,
  limit: number,
  after: number | undefined,
  signal: AbortSignal | undefined,
): Promise<LogResponse> {
  return api.request('store', '/v1/log', {
    query: { namespace: scope.namespace, branch: scope.branch, limit, after, contents: false },
    schema: logResponseSchema,
    signal,
  });
}

/**
 * Counts a branch's revisions: the log's `total` when the store sends it (one entry read), else by
 * paging through the whole log (the store keeps no count per branch).
 */
export async function countBranchRevisions(
  api: ApiClient,
  scope: StoreScope,
  signal?: AbortSignal,
): Promise<BranchRevisions> {
  const first = await readLogPage(api, scope, 1, undefined, signal);
  const head = first.entries[0]?.id ?? 0;
  if (first.total !== undefined) return { head, count: first.total };
  let count = first.entries.length;
  let after = first.next_cursor;
  while (after !== undefined) {
    const page = await readLogPage(api, scope, PAGE, after, signal);
    count += page.entries.length;
    after = page.next_cursor;
  }
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
