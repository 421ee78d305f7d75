import { useQuery } from '@tanstack/react-query';
import { diffResponseSchema } from '../../../../shared/store-api.js';
import { useApi } from '../../api/api-context.js';
import { queryKeys } from '../../api/query-keys.js';
import { assertNever } from '../../../../shared/assert-never.js';
import type { RestoreSource } from './actions/source.js';

/** One side of a comparison, with the branch it is read on (a revision's own, a checkpoint's). */
export interface CompareSide {
  readonly source: RestoreSource;
  readonly branch: string;
  /** The revision id of a revision source. */
  readonly revisionId?: number;
}

/** A side as the diff's selectors name it. */
function selector(side: CompareSide): { revision_id?: number; checkpoint_name?: string; branch_name?: string } {
  switch (side.source.kind) {
    case 'revision':
      return { revision_id: side.revisionId };
    case 'checkpoint':
      return { checkpoint_name: side.source.checkpoint };
    case 'branch':
      return { branch_name: side.source.branch };
    default:
      return assertNever(side.source);
  }
}

/**
 * The store's own diff of two sides, `from` → `to` (`POST /v1/diff` with `from`): the list of
 * changed documents, with their contents unless they passed `response_bytes`. The `to` side is read
 * on its own branch (a revision selector names one of the scope's branch). With `key`, only that
 * document's change, for one whose contents the whole list left out.
 */
export function useCompareDiff(
  namespace: string,
  from: CompareSide | undefined,
  to: CompareSide | undefined,
  key?: string,
) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.store.namespace(namespace), 'compare', from, to, key ?? ''],
    enabled: from !== undefined && to !== undefined,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/diff', {
        method: 'POST',
        body: {
          scope: { namespace, branch: to!.branch },
          ...selector(to!),
          from: selector(from!),
          ...(key === undefined ? {} : { keys: [key] }),
        },
        schema: diffResponseSchema,
        signal,
      }),
  });
}
