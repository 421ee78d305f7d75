import type { BranchRow, StoreRepository } from './store-repository.js';

// History is linear per branch, and a branch records where it started (`base_revision`, a revision of
// the branch it was made from, which gc keeps and which keeps its branch from being deleted). The
// revisions reachable from a branch's head are therefore its own, then its source branch's up to that
// base, then that branch's source's up to its base, and so on: a chain of (branch, up to) segments.

/** The revisions of one branch up to and including `upTo`, as far as a head reaches into that branch. */
export interface AncestrySegment {
  readonly branchId: number;
  readonly upTo: number;
}

/** What a branch's head reaches, nearest first: the branch itself, then the branches it was made from. */
export function ancestry(repo: StoreRepository, branch: BranchRow): AncestrySegment[] {
  const chain: AncestrySegment[] = [{ branchId: branch.id, upTo: branch.headRevision }];
  let base = branch.baseRevision;
  // A base is older than every revision of the branch made from it, so the chain ends.
  while (base !== 0) {
    const row = repo.revision(branch.namespaceId, base);
    const owner = row ? repo.branchById(row.branchId) : undefined;
    if (!row || !owner) break;
    chain.push({ branchId: owner.id, upTo: base });
    base = owner.baseRevision;
  }
  return chain;
}

/** Whether `revision` (a revision of branch `branchId`) is reachable from the head the chain starts at. */
export function reaches(chain: readonly AncestrySegment[], branchId: number, revision: number): boolean {
  return chain.some((segment) => segment.branchId === branchId && revision <= segment.upTo);
}

/**
 * The newest revision reachable from both heads (`git merge-base`), 0 when they share none (branches
 * started empty, or from a checkpoint of revision 0). The chains are linear and their revision ids fall
 * along them, so the first branch of one chain that the other also reaches holds it, at the lower of the
 * two points they reach.
 */
export function mergeBase(repo: StoreRepository, a: BranchRow, b: BranchRow): number {
  const reachedByB = new Map(ancestry(repo, b).map((segment) => [segment.branchId, segment.upTo]));
  for (const segment of ancestry(repo, a)) {
    const other = reachedByB.get(segment.branchId);
    if (other !== undefined) return Math.min(segment.upTo, other);
  }
  return 0;
}
