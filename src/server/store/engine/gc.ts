import { sourceAt } from './reconstruct.js';
import type { BranchRow, NamespaceRow, StoreRepository } from './store-repository.js';

/** Revisions kept per branch when `keep` is missing or 0. */
export const DEFAULT_KEEP = 10;

/** Which namespaces a gc run may touch, by name; a run without one covers every namespace. */
export type NamespaceFilter = (name: string) => boolean;

type RevisionTuple = ReturnType<StoreRepository['revisionsOf']>[number];

/** What gc decides for one namespace: its revisions, branches, and the ids that survive. */
interface NamespacePlan {
  readonly namespace: NamespaceRow;
  readonly revisions: readonly RevisionTuple[];
  readonly branches: readonly BranchRow[];
  readonly kept: ReadonlySet<number>;
  readonly doomed: number;
}

/**
 * The selection, shared by {@link collectGarbage} and {@link countGarbage} so a dry run counts exactly
 * what a real run deletes: the newest `keep` revisions of each branch (following its parent chain from
 * the head), every checkpointed revision, every branch base and every source head a merge took
 * survive. Reads only.
 */
function* planGarbage(repo: StoreRepository, keep: number, covers?: NamespaceFilter): Generator<NamespacePlan> {
  const perBranch = keep || DEFAULT_KEEP;
  for (const namespace of repo.allNamespaces()) {
    if (covers && !covers(namespace.name)) continue;
    const revisions = repo.revisionsOf(namespace.id);
    const parents = new Map<number, number>();
    for (const [id, , parent] of revisions) parents.set(id, parent);
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
    // A later merge base can be any head a merge took, so each stays readable.
    for (const id of repo.mergedRevisions(namespace.id)) kept.add(id);
    const doomed = revisions.filter(([id]) => !kept.has(id)).length;
    yield { namespace, revisions, branches, kept, doomed };
  }
}

/** The number of revisions {@link collectGarbage} would delete with this `keep`; writes nothing. */
export function countGarbage(repo: StoreRepository, keep: number, covers?: NamespaceFilter): number {
  let pruned = 0;
  for (const plan of planGarbage(repo, keep, covers)) pruned += plan.doomed;
  return pruned;
}

/**
 * Garbage collection over every namespace `covers` accepts (all without it), like a shallow Git clone
 * (see {@link planGarbage} for what stays). A kept revision whose parent goes first gets a keyframe and becomes a root, so it stays
 * fully readable; then the rest go with their change rows and keyframes, and finally every key nothing
 * references, while the contents nothing references are listed for the `ContentSweeper` to delete
 * after the transaction. Call inside one write transaction. Returns the number of revisions deleted.
 */
export function collectGarbage(repo: StoreRepository, keep: number, covers?: NamespaceFilter): number {
  let pruned = 0;
  for (const { namespace, revisions, branches, kept, doomed } of planGarbage(repo, keep, covers)) {
    if (doomed === 0) continue;

    // Roots first: their keyframes are rebuilt from history that is about to go.
    const branchById = new Map<number, BranchRow>(branches.map((b) => [b.id, b]));
    for (const [id, branchId, parent, keyframe] of revisions) {
      if (!kept.has(id) || parent === 0 || kept.has(parent)) continue;
      if (!keyframe) repo.keyframeFromSource(namespace.id, id, sourceAt(repo, branchById.get(branchId), id));
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
  if (pruned > 0) repo.markUnreferenced();
  return pruned;
}
