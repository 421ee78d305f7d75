import { useQuery } from '@tanstack/react-query';
import { cherryPickResponseSchema, type LogEntry } from '../../../../../shared/store-api.js';
import { useApi } from '../../../api/api-context.js';
import { queryKeys, type StoreScope } from '../../../api/query-keys.js';
import { useBranches } from '../../../api/store-queries.js';

/**
 * What cherry-picking revision `id` onto the scope's branch would write: the store's dry run, so the
 * preview lists exactly its changes, or its refusal (a conflict's 409 names the documents, as does one
 * for a revision the branch already has). Keyed on the branch's head as the branch list has it, so a
 * write to the branch computes it again; the answer's `revision` is the head it was computed against.
 */
export function useCherryPickPreview(scope: StoreScope, id: number) {
  const api = useApi();
  const branches = useBranches(scope);
  const head = branches.data?.branches.find((branch) => branch.name === scope.branch)?.head_revision ?? 0;
  const preview = useQuery({
    queryKey: [...queryKeys.store.namespace(scope.namespace), 'cherry-pick-preview', scope.branch, id, head],
    // A preview must show the head as it is now; a branch list that failed still lets it be computed.
    staleTime: 0,
    enabled: !branches.isPending,
    queryFn: ({ signal }) =>
      api.request('store', '/v1/cherry-pick', {
        method: 'POST',
        body: { scope, revision_id: id, dry_run: true },
        schema: cherryPickResponseSchema,
        signal,
      }),
  });
  return { preview, head: branches.data ? head : undefined, readingHead: branches.isFetching };
}

/**
 * The store's default message on one line, for a placeholder: the picked revision's first line and
 * `(cherry picked from revision 9 of branch "feature")`, which the store writes below the whole message.
 */
export function defaultCherryPickMessage(revision: LogEntry): string {
  const firstLine = revision.message.split('\n', 1)[0] ?? '';
  return `${firstLine} (cherry picked from revision ${revision.id} of branch "${revision.branch}")`;
}
