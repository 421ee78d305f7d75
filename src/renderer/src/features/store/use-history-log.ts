import { useInfiniteQuery } from '@tanstack/react-query';
import { logResponseSchema, type LogEntry, type LogResponse } from '../../../../shared/store-api.js';
import { useApi } from '../../api/api-context.js';
import type { ApiClient } from '../../api/http.js';
import { queryKeys, type StoreScope } from '../../api/query-keys.js';
import { LOG_PAGE_SIZE } from '../../api/store-queries.js';

/** Where a page of the log starts: older than `after` (0: the head), or the entries newer than `newerThan`. */
type PageParam = { readonly after: number } | { readonly newerThan: number };

/**
 * Revision ids above `start` the first page of a log read from there covers too, so the rows just
 * newer are there to move up to (a window of ids holds at most that many entries, so `start` is
 * always on the page).
 */
const START_CONTEXT_IDS = 10;

/** A page of the log; `reachedHead` marks a page of newer entries that found all there are. */
type HistoryPage = LogResponse & { readonly reachedHead?: boolean };

/** One request of the log: keys and types only, as every list of it. */
function readPage(api: ApiClient, scope: StoreScope, key: string, after: number, signal: AbortSignal) {
  return api.request('store', '/v1/log', {
    query: {
      namespace: scope.namespace,
      branch: scope.branch,
      limit: LOG_PAGE_SIZE,
      after: after || undefined,
      key: key || undefined,
      contents: false,
    },
    schema: logResponseSchema,
    signal,
  });
}

/**
 * The entries of the log newer than revision `top`, up to `head`. The log pages only towards older
 * revisions, so this reads the page below an id window above `top` (ids grow with time, so it holds
 * the nearest newer ones), widening the window while it holds none, and reading on down to `top`
 * when a page ends before it, so no entry is skipped.
 */
async function readNewer(
  api: ApiClient,
  scope: StoreScope,
  key: string,
  top: number,
  head: number,
  signal: AbortSignal,
): Promise<HistoryPage> {
  for (let window = LOG_PAGE_SIZE; ; window *= 4) {
    const after = Math.min(top + 1 + window, head + 1);
    const entries: LogEntry[] = [];
    let page = await readPage(api, scope, key, after, signal);
    for (;;) {
      entries.push(...page.entries.filter((entry) => entry.id > top));
      const last = page.entries.at(-1);
      if (page.next_cursor === undefined || last === undefined || last.id <= top) break;
      page = await readPage(api, scope, key, page.next_cursor, signal);
    }
    const reachedHead = after > head;
    if (entries.length > 0 || reachedHead) return { entries, total: page.total, reachedHead };
  }
}

/**
 * A branch's history for the History screen, newest first, a page at a time (see `useLog`). With
 * `start`, the log is read from just above that revision down (a link to an old revision of a long history
 * opens there, not after every newer page), and newer pages come on demand (`fetchNewer`) up to
 * `head`; `startMissed` says the log holds no such revision (another branch's, one the document
 * filter leaves out, one gone), for the caller to read from the head instead.
 */
export function useHistoryLog(scope: StoreScope, key: string, enabled: boolean, start?: number, head?: number) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: [...queryKeys.store.log(scope, key), 'from', start ?? 0],
    enabled,
    initialPageParam: { after: start ? start + 1 + START_CONTEXT_IDS : 0 } as PageParam,
    queryFn: ({ pageParam, signal }): Promise<HistoryPage> =>
      'after' in pageParam
        ? readPage(api, scope, key, pageParam.after, signal)
        : readNewer(api, scope, key, pageParam.newerThan, head ?? pageParam.newerThan, signal),
    getNextPageParam: (page): PageParam | undefined =>
      page.next_cursor === undefined ? undefined : { after: page.next_cursor },
    getPreviousPageParam: (page, pages): PageParam | undefined => {
      const top = pages.find((each) => each.entries.length > 0)?.entries[0]?.id;
      if (!start || page.reachedHead || top === undefined || head === undefined || top >= head) return undefined;
      if (pages.length === 1 && start + START_CONTEXT_IDS >= head) return undefined;
      return { newerThan: top };
    },
  });
  const startMissed =
    start !== undefined &&
    query.data !== undefined &&
    !query.data.pages.some((page) => page.entries.some((entry) => entry.id === start));
  return { ...query, startMissed };
}
