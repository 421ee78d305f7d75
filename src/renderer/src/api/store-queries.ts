import { useInfiniteQuery, useQuery, type Query } from '@tanstack/react-query';
import {
  MAX_PAGE_LIMIT,
  branchListResponseSchema,
  checkpointListResponseSchema,
  diffResponseSchema,
  logEntrySchema,
  logResponseSchema,
  mergeResponseSchema,
  type MergeSide,
  namespaceListResponseSchema,
  stateResponseSchema,
  type StateKeysResponse,
  type StateResponse,
} from '../../../shared/store-api.js';
import { readAllPages } from './all-pages.js';
import { readStateKeys, readStoreState } from './store-state.js';
import { useApi } from './api-context.js';
import { queryKeys, type RevisionSelector, type StoreScope } from './query-keys.js';

/** Log entries per page: enough to fill a tall window, small enough to arrive quickly. */
export const LOG_PAGE_SIZE = 100;

/** Every namespace with its counts (all pages), read again every `pollMs` while the page is visible when given. */
export function useNamespaces(pollMs?: number) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.store.namespaces(),
    refetchInterval: pollMs,
    queryFn: ({ signal }) =>
      readAllPages(
        (after) =>
          api.request('store', '/v1/namespaces', {
            query: { limit: MAX_PAGE_LIMIT, after },
            schema: namespaceListResponseSchema,
            signal,
          }),
        (pages) => ({ namespaces: pages.flatMap((page) => page.namespaces) }),
      ),
  });
}

/** Every branch of a namespace (all pages), `current` marking the scope's branch. */
export function useBranches(scope: StoreScope) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.branches(scope.namespace), scope.branch],
    queryFn: ({ signal }) =>
      readAllPages(
        (after) =>
          api.request('store', '/v1/branches', {
            query: { namespace: scope.namespace, branch: scope.branch, limit: MAX_PAGE_LIMIT, after },
            schema: branchListResponseSchema,
            signal,
          }),
        (pages) => ({ branches: pages.flatMap((page) => page.branches) }),
      ),
  });
}

/** Every checkpoint of a namespace (all pages). */
export function useCheckpoints(namespace: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.store.checkpoints(namespace),
    queryFn: ({ signal }) =>
      readAllPages(
        (after) =>
          api.request('store', '/v1/checkpoints', {
            query: { namespace, limit: MAX_PAGE_LIMIT, after },
            schema: checkpointListResponseSchema,
            signal,
          }),
        (pages) => ({ checkpoints: pages.flatMap((page) => page.checkpoints) }),
      ),
  });
}

/**
 * A branch's history, newest first, one page at a time (`after` cursor); with `key`, only the
 * revisions that changed that document. Entries carry keys and types only (`contents=false`): a list
 * needs no more, and a long history of large documents would otherwise be read whole, and again on
 * every write; the selected revision's contents are read with {@link useRevision}.
 */
export function useLog(scope: StoreScope, key = '', enabled = true) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.store.log(scope, key),
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.request('store', '/v1/log', {
        query: {
          namespace: scope.namespace,
          branch: scope.branch,
          limit: LOG_PAGE_SIZE,
          after: pageParam || undefined,
          key: key || undefined,
          contents: false,
        },
        schema: logResponseSchema,
        signal,
      }),
    getNextPageParam: (page) => page.next_cursor,
  });
}

/**
 * One revision with its changes' keys, types and sizes, no contents (`contents=false`): a revision of
 * large documents is listed without downloading them; {@link useRevisionChange} reads one document's.
 */
export function useRevision(namespace: string, id: number | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.store.revision(namespace, id ?? 0),
    enabled: id !== undefined && id > 0,
    queryFn: ({ signal }) =>
      api.request('store', `/v1/revisions/${id}`, {
        query: { namespace, contents: 'false' },
        schema: logEntrySchema,
        signal,
      }),
  });
}

/** One revision with every change's contents before and after (what a revert's preview works from). */
export function useRevisionContents(namespace: string, id: number, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.revision(namespace, id), 'contents'],
    enabled,
    queryFn: ({ signal }) =>
      api.request('store', `/v1/revisions/${id}`, { query: { namespace }, schema: logEntrySchema, signal }),
  });
}

/**
 * The change one revision made to one document, with its contents before and after (or, past the
 * store's response limit, without them and `contents_omitted`); `key` undefined reads nothing.
 */
export function useRevisionChange(namespace: string, id: number, key: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.revision(namespace, id), 'key', key ?? ''],
    enabled: key !== undefined,
    queryFn: ({ signal }) =>
      api.request('store', `/v1/revisions/${id}`, { query: { namespace, key }, schema: logEntrySchema, signal }),
  });
}

/** True when a state query's (or listing's) key is for the same namespace and branch as `scope`. */
function sameScope<T>(query: Query<T> | undefined, scope: StoreScope): boolean {
  const key = query?.queryKey;
  return key !== undefined && key[1] === scope.namespace && key[3] === scope.branch;
}

/**
 * The documents of a branch at a revision or checkpoint (head when neither), read a page at a time
 * (see {@link readStoreState}). While another revision of the same branch loads, the last one's
 * documents stay as placeholder data (`isPlaceholderData`), so a list keeps its place; never those of
 * another branch or namespace, which would pass for the new scope's.
 */
export function useStoreState(scope: StoreScope, at: RevisionSelector, enabled = true) {
  const api = useApi();
  return useQuery<StateResponse>({
    queryKey: queryKeys.store.state(scope, at),
    enabled,
    placeholderData: (previous, previousQuery) => (sameScope(previousQuery, scope) ? previous : undefined),
    // Sharing rebuilds objects key by key, which would drop a document named "__proto__" (and costs a
    // walk over every document of a large state on each refetch).
    structuralSharing: false,
    queryFn: ({ signal }) => readStoreState(api, scope, at, signal),
  });
}

/**
 * The keys and sizes of a branch's documents at a revision or checkpoint (head when neither), no
 * contents (`contents=false`), read a page at a time (see {@link readStateKeys}). The
 * last revision's listing of the same branch stays as placeholder data while another loads.
 */
export function useStateKeys(scope: StoreScope, at: RevisionSelector, enabled = true) {
  const api = useApi();
  return useQuery<StateKeysResponse>({
    queryKey: [...queryKeys.store.state(scope, at), 'keys'],
    enabled,
    placeholderData: (previous, previousQuery) => (sameScope(previousQuery, scope) ? previous : undefined),
    queryFn: ({ signal }) => readStateKeys(api, scope, at, signal),
  });
}

/** One document of a branch at a revision (head when none), its content alone; `key` undefined reads nothing. */
export function useStateDocument(scope: StoreScope, at: RevisionSelector, key: string | undefined, enabled = true) {
  const api = useApi();
  return useQuery<StateResponse>({
    queryKey: [...queryKeys.store.state(scope, at), 'key', key ?? ''],
    enabled: enabled && key !== undefined,
    // As for whole states: sharing would drop a document named "__proto__".
    structuralSharing: false,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/state', {
        query: { ...scope, revision: at.revision || undefined, checkpoint: at.checkpoint || undefined, key },
        schema: stateResponseSchema,
        signal,
      }),
  });
}

/** What turning the branch head into the selected revision would change (the preview of a rollback). */
export function useHeadDiff(scope: StoreScope, at: RevisionSelector, enabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.store.headDiff(scope, at),
    // A preview must show the head as it is now.
    staleTime: 0,
    enabled,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/diff', {
        method: 'POST',
        body: { scope, revision_id: at.revision ?? 0, checkpoint_name: at.checkpoint ?? '', documents: [] },
        schema: diffResponseSchema,
        signal,
      }),
  });
}

/** How a merge preview settles conflicts: a side for all of them, or one per document key. */
export interface MergeChoices {
  readonly strategy?: MergeSide;
  /** Pairs rather than an object, so a key such as `__proto__` is kept as any other. */
  readonly resolve?: readonly (readonly [string, MergeSide])[];
  /**
   * The heads the choices were made against (those of the dry run that listed the conflicts): when
   * either moved since, the store answers 409 rather than judge choices about other contents.
   */
  readonly expectedRevision?: number;
  readonly expectedFromRevision?: number;
  /** False holds the preview back (its choices are not all made yet). */
  readonly enabled?: boolean;
}

/**
 * What merging branch `from` into the scope's branch would write: the store's dry run of the merge, so
 * exactly the documents it would take (what `from` changed since their merge base), or its refusal
 * (a conflict's 409 names the documents). Keyed on both heads as the branch list has them, so a write
 * to either branch computes it again; the answer's `revision` and `from_revision` are the heads it was
 * computed against, which the merge itself should send as its expected ones. With `choices`, the dry
 * run settles conflicts as they say, and its `resolved` lists the ones it settled.
 */
export function useMergePreview(scope: StoreScope, from: string, choices: MergeChoices = {}) {
  const api = useApi();
  const branches = useBranches(scope);
  const headOf = (name: string): number =>
    branches.data?.branches.find((branch) => branch.name === name)?.head_revision ?? 0;
  return useQuery({
    queryKey: [
      ...queryKeys.store.namespace(scope.namespace),
      'merge-preview',
      scope.branch,
      from,
      headOf(scope.branch),
      headOf(from),
      choices.strategy ?? null,
      choices.resolve ?? null,
      choices.expectedRevision ?? null,
      choices.expectedFromRevision ?? null,
    ],
    // A preview must show the heads as they are now; a branch list that failed still lets it be computed.
    staleTime: 0,
    enabled: !branches.isPending && choices.enabled !== false,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/merge', {
        method: 'POST',
        body: {
          scope,
          from_branch: from,
          dry_run: true,
          strategy: choices.strategy,
          resolve: choices.resolve && Object.fromEntries(choices.resolve),
          expected_revision: choices.expectedRevision,
          expected_from_revision: choices.expectedFromRevision,
        },
        schema: mergeResponseSchema,
        signal,
      }),
  });
}
