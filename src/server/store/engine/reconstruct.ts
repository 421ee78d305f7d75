import { MIN_KEYFRAME_INTERVAL } from './commit.js';
import { EMPTY_STATE, type BranchRow, type StateSource, type StoreRepository } from './store-repository.js';

// State at any retained revision = its branch's nearest keyframe at or below it, plus the change rows
// since (or, when closer, the head minus the change rows above it). Keyframes are written when the
// change rows since the last one reach max(64, documents), and garbage collection gives every revision
// whose parent it removes a keyframe, so the replay is bounded by the size of the state, never by the
// length of the history. Ids are shared by the namespace's branches, so id distances only estimate
// the change rows to read. Going back from the head needs an unbroken history: no gc root in between.

/** Where the state of `branch` at `revision` (one of its revisions, or 0) is read from. */
export function sourceAt(repo: StoreRepository, branch: BranchRow | undefined, revision: number): StateSource {
  if (!branch || revision === 0) return EMPTY_STATE;
  if (revision === branch.headRevision) return { kind: 'head', branchId: branch.id };
  const from = repo.keyframeAtOrBefore(branch.id, revision);
  if (branch.headRevision - revision < revision - from && canGoBack(repo, branch, revision))
    return { kind: 'back', branchId: branch.id, to: revision };
  return { kind: 'at', namespaceId: branch.namespaceId, branchId: branch.id, from, to: revision };
}

/**
 * Where to read `revision` of `branch` from when it is compared with the head of `headBranch`. Against
 * its own branch's head, going back reads only the change rows above `revision` (no full state), so it
 * wins whenever those are fewer than the documents a full state would read.
 */
export function sourceAgainstHead(
  repo: StoreRepository,
  headBranch: BranchRow | undefined,
  branch: BranchRow | undefined,
  revision: number,
): StateSource {
  if (!branch || branch.id !== headBranch?.id || revision === 0 || revision === branch.headRevision)
    return sourceAt(repo, branch, revision);
  const fewerChanges = branch.headRevision - revision <= Math.max(MIN_KEYFRAME_INTERVAL, branch.documentCount);
  if (fewerChanges && canGoBack(repo, branch, revision)) return { kind: 'back', branchId: branch.id, to: revision };
  return sourceAt(repo, branch, revision);
}

function canGoBack(repo: StoreRepository, branch: BranchRow, revision: number): boolean {
  return !repo.rootWithin(branch.id, revision, branch.headRevision);
}
