import { EMPTY_STATE, type BranchRow, type StateSource, type StoreRepository } from './store-repository.js';

// State at any retained revision = its branch's nearest keyframe at or below it, plus the change rows
// since (or, when closer, the head minus the change rows above it). Keyframes are written when the change rows since the last one reach max(64, documents), and
// garbage collection gives every revision whose parent it removes a keyframe, so the replay is bounded
// by the size of the state, never by the length of the history.

/** Where the state of `branch` at `revision` (one of its revisions, or 0) is read from. */
export function sourceAt(repo: StoreRepository, branch: BranchRow | undefined, revision: number): StateSource {
  if (!branch || revision === 0) return EMPTY_STATE;
  if (revision === branch.headRevision) return { kind: 'head', branchId: branch.id };
  const from = repo.keyframeAtOrBefore(branch.id, revision);
  // Ids are shared by the namespace's branches, so distances only estimate the change rows to read.
  // Going back from the head needs an unbroken history up to it: no gc root in between.
  const closerToHead = branch.headRevision - revision < revision - from;
  if (closerToHead && !repo.rootWithin(branch.id, revision, branch.headRevision)) return { kind: 'back', branchId: branch.id, to: revision };
  return { kind: 'at', namespaceId: branch.namespaceId, branchId: branch.id, from, to: revision };
}
