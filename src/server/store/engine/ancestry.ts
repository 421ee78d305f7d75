import type { BranchRow, MergeRow, StoreRepository } from './store-repository.js';

// History is linear per branch, and a branch records where it started (`base_revision`, a revision of
// the branch it was made from, which gc keeps and which keeps its branch from being deleted). The
// revisions of a branch's own history are therefore its own, then its source branch's up to that base,
// then that branch's source's up to its base, and so on: a chain of (branch, up to) segments. Merge
// bases also follow recorded merges (see `mergeBases`).

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

/** A revision of a branch: the point up to which something reaches into that branch. */
export interface ReachPoint {
  readonly branchId: number;
  readonly revision: number;
}

/** The revisions of each branch up to which `start` reaches: per branch id, the newest one reached. */
type Reach = Map<number, number>;

/** Branch rows and recorded merges, read once per merge base computation. */
class HistoryReads {
  private readonly branches = new Map<number, BranchRow | undefined>();
  private readonly merges = new Map<number, readonly MergeRow[]>();
  constructor(private readonly repo: StoreRepository) {}

  branch(id: number): BranchRow | undefined {
    if (!this.branches.has(id)) this.branches.set(id, this.repo.branchById(id));
    return this.branches.get(id);
  }

  into(branchId: number): readonly MergeRow[] {
    let rows = this.merges.get(branchId);
    if (!rows) this.merges.set(branchId, (rows = this.repo.mergesInto(branchId)));
    return rows;
  }
}

/**
 * Everything `start` reaches: its branch up to it, then along two kinds of edges, as Git's parents. A
 * branch reaches the branch it was made from up to its `base_revision`; a merge revision also reaches
 * the head it merged (`store_merges`), and so on from there. Each branch is linear, so the newest point
 * reached in a branch stands for all of its revisions up to it.
 */
function reachFrom(repo: StoreRepository, namespaceId: number, start: ReachPoint, reads: HistoryReads): Reach {
  const reached: Reach = new Map();
  const pending: ReachPoint[] = [start];
  while (pending.length > 0) {
    const { branchId, revision } = pending.pop()!;
    const before = reached.get(branchId);
    if (before !== undefined && before >= revision) continue;
    reached.set(branchId, revision);
    const branch = reads.branch(branchId);
    if (!branch) continue;
    if (before === undefined && branch.baseRevision !== 0) {
      const owner = repo.revision(namespaceId, branch.baseRevision);
      if (owner) pending.push({ branchId: owner.branchId, revision: branch.baseRevision });
    }
    for (const merge of reads.into(branchId)) {
      if (merge.revisionId > revision) break;
      if (before === undefined || merge.revisionId > before)
        pending.push({ branchId: merge.fromBranchId, revision: merge.fromRevision });
    }
  }
  return reached;
}

/**
 * The best common ancestors of two heads (`git merge-base --all`), newest first; empty when they share
 * no revision (branches started empty, or from a checkpoint of revision 0). Per branch both reach, the
 * lower of the two points they reach is the newest common revision in it; of those, the ones that no
 * other one reaches are the best. With merges recorded both ways there can be several (a criss-cross:
 * each branch merged the other before seeing the other's merge); a merge judges against all of them.
 */
export function mergeBases(repo: StoreRepository, a: BranchRow, b: BranchRow): number[] {
  const reads = new HistoryReads(repo);
  const reachOf = (branch: BranchRow) =>
    reachFrom(repo, branch.namespaceId, { branchId: branch.id, revision: branch.headRevision }, reads);
  const reachedByB = reachOf(b);
  const common: ReachPoint[] = [];
  for (const [branchId, upTo] of reachOf(a)) {
    const other = reachedByB.get(branchId);
    const revision = other === undefined ? 0 : Math.min(upTo, other);
    if (revision !== 0) common.push({ branchId, revision });
  }
  const best = common.filter(
    (candidate) =>
      !common.some((other) => {
        // Revision ids grow along every edge: only a newer point can reach an older one.
        if (other.revision <= candidate.revision) return false;
        const reached = reachFrom(repo, a.namespaceId, other, reads).get(candidate.branchId);
        return reached !== undefined && reached >= candidate.revision;
      }),
  );
  return best.map((point) => point.revision).sort((x, y) => y - x);
}
