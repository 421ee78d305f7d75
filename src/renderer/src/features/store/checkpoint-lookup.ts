import type { Checkpoint } from '../../../../shared/store-api.js';

/**
 * Where a checkpoint named in the address stands. Checkpoints belong to the namespace, not to a
 * branch, so one may be found on another branch than the one on screen, or not at all.
 */
export type CheckpointLookup =
  | { readonly status: 'none' | 'loading' }
  | { readonly status: 'error'; readonly error: unknown }
  | { readonly status: 'missing'; readonly name: string }
  | { readonly status: 'found'; readonly checkpoint: Checkpoint };

/** Looks a checkpoint up by name in the namespace's whole list (undefined list: still loading). */
export function lookUpCheckpoint(name: string, listed: readonly Checkpoint[] | undefined): CheckpointLookup {
  if (listed === undefined) return { status: 'loading' };
  const checkpoint = listed.find((entry) => entry.name === name);
  return checkpoint ? { status: 'found', checkpoint } : { status: 'missing', name };
}

/** What to say about a picked checkpoint that cannot be shown (undefined: nothing wrong). */
export function checkpointProblem(
  lookup: CheckpointLookup,
  namespace: string,
): { readonly title: string; readonly error: unknown } | undefined {
  if (lookup.status === 'missing')
    return {
      title: `No checkpoint “${lookup.name}” in ${namespace}`,
      error: new Error('It may have been deleted or never created: pick a checkpoint from the list, or the head.'),
    };
  if (lookup.status === 'error') return { title: 'The checkpoints could not be listed', error: lookup.error };
  return undefined;
}
