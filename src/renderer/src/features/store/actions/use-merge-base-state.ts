import { useQuery } from '@tanstack/react-query';
import { MAX_KEYS_PER_REQUEST, revisionResponseSchema, stateResponseSchema } from '../../../../../shared/store-api.js';
import { useApi } from '../../../api/api-context.js';
import { ApiError, type ApiClient } from '../../../api/http.js';
import { queryKeys } from '../../../api/query-keys.js';

/** The merge base as the conflict view compares against it. */
export type MergeBaseRead =
  /** The branches have no common revision (merge_base 0): there is nothing to compare with. */
  | { readonly status: 'none' }
  | { readonly status: 'loading' }
  | { readonly status: 'error' }
  | {
      readonly status: 'read';
      /** `main@12`: the branch the base revision was written on, and its id. */
      readonly name: string;
      /** The conflicting documents at the base; a key missing here was not in the base. */
      readonly objects: Readonly<Record<string, string>>;
    };

/** A conflicting document's content at the base: undefined when the base did not hold it. */
export function baseContentOf(base: MergeBaseRead & { readonly status: 'read' }, key: string): string | undefined {
  // Own properties only: a document named "__proto__" or "toString" is a document like any other.
  return Object.hasOwn(base.objects, key) ? base.objects[key] : undefined;
}

/**
 * The conflicting documents at the merge base, read once (a revision's documents never change) and
 * only when `enabled` (a conflict row is open). State is read per branch, so the branch the base
 * revision was written on is looked up first, with the smallest page of its changes.
 */
export function useMergeBaseState(
  namespace: string,
  mergeBase: number | undefined,
  keys: readonly string[],
  enabled: boolean,
): MergeBaseRead {
  const api = useApi();
  const query = useQuery({
    queryKey: [...queryKeys.store.namespace(namespace), 'merge-base-state', mergeBase ?? 0, keys],
    enabled: enabled && mergeBase !== undefined && mergeBase > 0 && keys.length > 0,
    staleTime: Infinity,
    structuralSharing: false,
    queryFn: async ({ signal }) => {
      const revision = await api.request('store', `/v1/revisions/${mergeBase}`, {
        query: { namespace, limit: 1 },
        schema: revisionResponseSchema,
        signal,
      });
      const objects = await readKeys(api, { namespace, branch: revision.branch, revision: revision.id }, keys, signal);
      return { name: `${revision.branch}@${revision.id}`, objects };
    },
  });
  if (mergeBase === 0) return { status: 'none' };
  if (query.error) return { status: 'error' };
  if (!query.data) return { status: 'loading' };
  return { status: 'read', ...query.data };
}

/** Where the documents are read: a branch at one of its revisions. */
interface BaseAt {
  readonly namespace: string;
  readonly branch: string;
  readonly revision: number;
}

/**
 * The named documents at a revision, at most {@link MAX_KEYS_PER_REQUEST} keys a request; a request
 * whose answer would pass the store's response_bytes (413) is split in two and sent again.
 */
async function readKeys(
  api: ApiClient,
  at: BaseAt,
  keys: readonly string[],
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const chunks: (readonly string[])[] = [];
  for (let start = 0; start < keys.length; start += MAX_KEYS_PER_REQUEST)
    chunks.push(keys.slice(start, start + MAX_KEYS_PER_REQUEST));
  const read = async (chunk: readonly string[]): Promise<(readonly [string, string])[]> => {
    // `key` repeats, which the client's query object cannot say: it goes in the path's own query.
    const named = new URLSearchParams(chunk.map((key) => ['key', key]));
    try {
      const state = await api.request('store', `/v1/state?${named.toString()}`, {
        query: { namespace: at.namespace, branch: at.branch, revision: at.revision },
        schema: stateResponseSchema,
        signal,
      });
      return Object.entries(state.objects);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 413 && chunk.length > 1)) throw error;
      const half = Math.ceil(chunk.length / 2);
      return [...(await read(chunk.slice(0, half))), ...(await read(chunk.slice(half)))];
    }
  };
  const pairs: (readonly [string, string])[] = [];
  for (const chunk of chunks) pairs.push(...(await read(chunk)));
  // Object.fromEntries defines each key, so a document named "__proto__" stays a document.
  return Object.fromEntries(pairs);
}
