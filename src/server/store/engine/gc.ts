import { sourceAt } from './reconstruct.js';
import type { BranchRow, StoreRepository } from './store-repository.js';

/** Revisions kept per branch when `keep` is missing or 0. */
export const DEFAULT_KEEP = 10;

/**
 * Garbage collection over every namespace, like a shallow Git clone: keep the newest `keep` revisions
 * of each branch (following its parent chain from the head), every checkpointed revision and every
 * branch base. A kept revision whose parent goes first gets a keyframe and becomes a root, so it stays
 * fully readable; then the rest go with their change rows and keyframes, and finally every content and
 * key nothing references. Call inside one write transaction. Returns the number of revisions deleted.
 */
export function collectGarbage(repo: StoreRepository, keep: number): number {
  const perBranch = keep || DEFAULT_KEEP;
  let pruned = 0;
  for (const namespace of repo.allNamespaces()) {
    const revisions = repo.revisionsOf(namespace.id);
    const parents = new Map<number, number>();
    const keyframes = new Set<number>();
    for (const [id, , parent, keyframe] of revisions) {
      parents.set(id, parent);
      if (keyframe) keyframes.add(id);
    }
    const branches = repo.branchesOf(namespace.id);
    const kept = new Set<number>();
    for (const branch of branches) {
      let id = branch.headRevision;
      for (let n = 0; n < perBranch && parents.has(id); n++) {
        kept.add(id);
        id = parents.get(id)!;
      }
      if (branch.baseRevision) kept.add(branch.baseRevision);
    }
    for (const id of repo.checkpointRevisions(namespace.id)) if (id) kept.add(id);
    const doomed = revisions.filter(([id]) => !kept.has(id)).length;
    if (doomed === 0) continue;

    // Roots first: their keyframes are rebuilt from history that is about to go.
    const branchById = new Map<number, BranchRow>(branches.map((b) => [b.id, b]));
    for (const [id, branchId, parent] of revisions) {
      if (!kept.has(id) || parent === 0 || kept.has(parent)) continue;
      if (!keyframes.has(id)) repo.keyframeFromSource(namespace.id, id, sourceAt(repo, branchById.get(branchId), id));
      repo.markRoot(namespace.id, id);
    }
    // Revisions are listed in id order, so a run of doomed ones has no kept revision inside its id
    // range: one range statement per table deletes the whole run.
    let runStart = 0;
    let runEnd = 0;
    for (const [id] of revisions) {
      if (kept.has(id)) {
        if (runStart !== 0) repo.deleteRevisions(namespace.id, runStart, runEnd);
        runStart = 0;
        continue;
      }
      if (runStart === 0) runStart = id;
      runEnd = id;
    }
    if (runStart !== 0) repo.deleteRevisions(namespace.id, runStart, runEnd);
    pruned += doomed;
  }
  if (pruned > 0) repo.deleteUnreferenced();
  return pruned;
}
