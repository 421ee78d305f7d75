import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import {
  applyResponseSchema,
  branchCreateResponseSchema,
  branchDeleteResponseSchema,
  branchRenameResponseSchema,
  checkpointCreateResponseSchema,
  cherryPickResponseSchema,
  type CherryPickRequest,
  emptyResponseSchema,
  gcResponseSchema,
  mergeResponseSchema,
  type MergeSide,
  revertResponseSchema,
  type RevertRequest,
} from '../../../shared/store-api.js';
import { useApi } from './api-context.js';
import { ApiError, type ApiClient } from './http.js';
import { queryKeys, type StoreScope } from './query-keys.js';

/** A rollback target: a revision of the branch or a checkpoint. */
export interface RollbackInput {
  readonly scope: StoreScope;
  readonly revision?: number;
  readonly checkpoint?: string;
  readonly message: string;
  /** The head the preview was computed against: the write fails with 409 if the branch moved since. */
  readonly expectedRevision?: number;
}

/** A restore source: another branch's head, any revision of the namespace, or a checkpoint. */
export interface RestoreInput {
  readonly scope: StoreScope;
  readonly fromBranch?: string;
  readonly fromRevision?: number;
  readonly fromCheckpoint?: string;
  readonly message: string;
  readonly expectedRevision?: number;
  /** Only these documents of the source (a key it lacks is deleted); absent: the whole state. */
  readonly keys?: readonly string[];
}

/**
 * A revision whose changes are taken back (revert) or made again (cherry-pick, typically one of
 * another branch) on the scope's branch.
 */
export interface ReplayInput {
  readonly scope: StoreScope;
  readonly revision: number;
  /** Left out, the store writes its own, naming the revision: `Revert "<first line>"`, or its message and branch. */
  readonly message?: string;
  /** The head the preview was computed against. */
  readonly expectedRevision?: number;
}

/** The body revert and cherry-pick share. */
const replayBody = (input: ReplayInput): RevertRequest & CherryPickRequest => ({
  scope: input.scope,
  revision_id: input.revision,
  message: input.message,
  expected_revision: input.expectedRevision,
});

/** A branch whose head is merged into the scope's branch. */
export interface MergeInput {
  readonly scope: StoreScope;
  readonly fromBranch: string;
  readonly message?: string;
  /** The target's head the preview was computed against. */
  readonly expectedRevision?: number;
  /** The source's head the preview was computed against. */
  readonly expectedFromRevision?: number;
  /**
   * The side each conflicting document takes, as pairs (a key such as `__proto__` stays a key). Never a
   * `strategy`: a conflict that appeared since the preview still refuses the merge.
   */
  readonly resolve?: readonly (readonly [string, MergeSide])[];
}

/**
 * A store write: afterwards everything about the written namespace (log, state, branches,
 * checkpoints) and the namespace list are refreshed. So they are after a 409: the branch moved or
 * the name is taken, so what the screens show of the namespace is out of date. The write is over
 * when the store answers it: the refresh follows on its own (the promise is not returned), so a
 * slow read of the namespace never keeps a dialog busy, nor its result waiting.
 */
function useNamespaceWrite<I, O>(
  send: (api: ApiClient, input: I) => Promise<O>,
  namespaceOf: (input: I) => string,
  /** Queries of what the write removed: dropped, not refreshed, since reading them again is a 404. */
  removed?: (input: I) => QueryKey,
) {
  const api = useApi();
  const client = useQueryClient();
  const refresh = (input: I): void => {
    void client.invalidateQueries({ queryKey: queryKeys.store.namespace(namespaceOf(input)) });
    void client.invalidateQueries({ queryKey: queryKeys.store.namespaces() });
  };
  return useMutation({
    mutationFn: (input: I) => send(api, input),
    onSuccess: (_data, input) => {
      if (removed) client.removeQueries({ queryKey: removed(input) });
      refresh(input);
    },
    onError: (error, input) => {
      if (error instanceof ApiError && error.status === 409) refresh(input);
    },
  });
}

const scopeNamespace = (input: { readonly scope: StoreScope }): string => input.scope.namespace;

/** Rolls a branch back to a revision or checkpoint (a new revision; history is kept). */
export function useRollback() {
  return useNamespaceWrite(
    (api, input: RollbackInput) =>
      api.request('store', '/v1/rollback', {
        method: 'POST',
        body: {
          scope: input.scope,
          revision_id: input.revision ?? 0,
          checkpoint_name: input.checkpoint ?? '',
          message: input.message,
          expected_revision: input.expectedRevision,
        },
        schema: applyResponseSchema,
      }),
    scopeNamespace,
  );
}

/** Restores a branch's documents from another branch, revision or checkpoint. */
export function useRestore() {
  return useNamespaceWrite(
    (api, input: RestoreInput) =>
      api.request('store', '/v1/restore', {
        method: 'POST',
        body: {
          scope: input.scope,
          from_branch: input.fromBranch ?? '',
          from_revision: input.fromRevision ?? 0,
          from_checkpoint: input.fromCheckpoint ?? '',
          message: input.message,
          expected_revision: input.expectedRevision,
          keys: input.keys,
        },
        schema: applyResponseSchema,
      }),
    scopeNamespace,
  );
}

/** Takes back one revision's changes on the scope's branch (a new revision; later ones are kept). */
export function useRevert() {
  return useNamespaceWrite(
    (api, input: ReplayInput) =>
      api.request('store', '/v1/revert', { method: 'POST', body: replayBody(input), schema: revertResponseSchema }),
    scopeNamespace,
  );
}

/** Makes on the scope's branch what one revision changed, and nothing else of its branch (a new revision). */
export function useCherryPick() {
  return useNamespaceWrite(
    (api, input: ReplayInput) =>
      api.request('store', '/v1/cherry-pick', {
        method: 'POST',
        body: replayBody(input),
        schema: cherryPickResponseSchema,
      }),
    scopeNamespace,
  );
}

/** Merges another branch's head into the scope's branch, three-way against their merge base. */
export function useMerge() {
  return useNamespaceWrite(
    (api, input: MergeInput) =>
      api.request('store', '/v1/merge', {
        method: 'POST',
        body: {
          scope: input.scope,
          from_branch: input.fromBranch,
          message: input.message,
          expected_revision: input.expectedRevision,
          expected_from_revision: input.expectedFromRevision,
          resolve: input.resolve && Object.fromEntries(input.resolve),
        },
        schema: mergeResponseSchema,
      }),
    scopeNamespace,
  );
}

/** Creates a branch from the scope's head, a revision or a checkpoint. */
export function useCreateBranch() {
  return useNamespaceWrite(
    (api, input: { scope: StoreScope; name: string; fromRevision?: number; fromCheckpoint?: string }) =>
      api.request('store', '/v1/branches', {
        method: 'POST',
        body: {
          scope: input.scope,
          name: input.name,
          from_revision: input.fromRevision ?? 0,
          from_checkpoint: input.fromCheckpoint ?? '',
        },
        schema: branchCreateResponseSchema,
      }),
    scopeNamespace,
  );
}

/** Renames a branch (`git branch -m`): its history, checkpoints and merges keep working under the new name. */
export function useRenameBranch() {
  return useNamespaceWrite(
    (api, input: { namespace: string; name: string; newName: string }) =>
      api.request('store', '/v1/branches/rename', {
        method: 'POST',
        body: { namespace: input.namespace, name: input.name, new_name: input.newName },
        schema: branchRenameResponseSchema,
      }),
    (input) => input.namespace,
    // The old name has no log any more: reading it again would be a 404.
    (input) => ['store', input.namespace, 'log', input.name],
  );
}

/** What deleting a branch needs: the branch, and the head it was confirmed at. */
export interface DeleteBranchInput {
  readonly namespace: string;
  readonly name: string;
  /** The head the confirmation showed: the store refuses (409) if the branch moved since. */
  readonly expectedRevision?: number;
}

/** Deletes a branch with its whole history (the name is free again afterwards). */
export function useDeleteBranch() {
  return useNamespaceWrite(
    (api, input: DeleteBranchInput) =>
      api.request('store', '/v1/branches', {
        method: 'DELETE',
        body: { namespace: input.namespace, name: input.name, expected_revision: input.expectedRevision },
        schema: branchDeleteResponseSchema,
      }),
    (input) => input.namespace,
    // A deleted branch's log is a 404, as the log of a branch never written is.
    (input) => ['store', input.namespace, 'log', input.name],
  );
}

/** Creates (or moves) a checkpoint at the scope's head. */
export function useCreateCheckpoint() {
  return useNamespaceWrite(
    (api, input: { scope: StoreScope; name: string; description: string; revision_id?: number }) =>
      api.request('store', '/v1/checkpoints', { method: 'POST', body: input, schema: checkpointCreateResponseSchema }),
    scopeNamespace,
  );
}

/** Deletes a checkpoint (its revision may then be garbage collected). */
export function useDeleteCheckpoint() {
  return useNamespaceWrite(
    (api, input: { namespace: string; name: string }) =>
      api.request('store', '/v1/checkpoints', { method: 'DELETE', body: input, schema: emptyResponseSchema }),
    (input) => input.namespace,
  );
}

/** Garbage collection over every namespace; `dryRun` reports what would be pruned without deleting. */
export function useGc() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { keep: number; dryRun: boolean }) =>
      api.request('store', '/v1/gc', {
        method: 'POST',
        body: { keep: input.keep, dry_run: input.dryRun },
        schema: gcResponseSchema,
      }),
    // As for the other writes, the prune is over when the store answers; the refresh follows.
    onSuccess: (_data, input) => {
      if (!input.dryRun) void client.invalidateQueries({ queryKey: queryKeys.store.all });
    },
  });
}

/**
 * A gc that then gives the database's free pages back to the disk (`compact`), keeping `keep`
 * revisions as a prune would.
 */
export function useGcCompact() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keep: number) =>
      api.request('store', '/v1/gc', { method: 'POST', body: { keep, compact: true }, schema: gcResponseSchema }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.store.all }),
  });
}
