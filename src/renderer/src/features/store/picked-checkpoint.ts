import { useCheckpoints } from '../../api/store-queries.js';
import { lookUpCheckpoint, type CheckpointLookup } from './checkpoint-lookup.js';
import type { PickedRevision } from './revision-picker.js';

/** The lookup of the picked checkpoint (`none` when a revision or the head is picked). */
export function usePickedCheckpoint(namespace: string, picked: PickedRevision): CheckpointLookup {
  const checkpoints = useCheckpoints(namespace);
  if (picked.kind !== 'checkpoint') return { status: 'none' };
  if (checkpoints.isError) return { status: 'error', error: checkpoints.error };
  return lookUpCheckpoint(picked.checkpoint, checkpoints.data?.checkpoints);
}
