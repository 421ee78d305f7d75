import { useCheckpoints, useRevision, useStoreState } from '../../../api/store-queries.js';

/** Where a restore takes its documents from. */
export type RestoreSource =
  | { readonly kind: 'branch'; readonly branch: string }
  | { readonly kind: 'revision'; readonly revision: number }
  | { readonly kind: 'checkpoint'; readonly checkpoint: string };

/**
 * The documents of a restore source. A revision or checkpoint may sit on another branch, and state
 * is read per branch, so the branch is looked up first (the revision's own, or the checkpoint's).
 */
export function useSourceState(namespace: string, source: RestoreSource | undefined) {
  const revisionId = source?.kind === 'revision' ? source.revision : undefined;
  const revision = useRevision(namespace, revisionId);
  const checkpoints = useCheckpoints(namespace);
  const checkpoint =
    source?.kind === 'checkpoint'
      ? checkpoints.data?.checkpoints.find((entry) => entry.name === source.checkpoint)
      : undefined;

  let branch: string | undefined;
  if (source?.kind === 'branch') branch = source.branch || undefined;
  else if (source?.kind === 'revision') branch = revision.data?.branch;
  else if (source?.kind === 'checkpoint') branch = checkpoint?.branch;

  const at =
    source?.kind === 'revision'
      ? { revision: source.revision }
      : source?.kind === 'checkpoint'
        ? { checkpoint: source.checkpoint }
        : {};
  const state = useStoreState({ namespace, branch: branch ?? '' }, at, branch !== undefined);
  const error =
    state.error ??
    (source?.kind === 'revision' ? revision.error : undefined) ??
    (source?.kind === 'checkpoint' ? checkpoints.error : undefined);
  return { data: branch !== undefined ? state.data : undefined, error, branch };
}
