import type { BranchRow, MergeRow, RestartRow, StoreRepository } from './store-repository.js';

// History is linear per branch, and a branch records where it started (`base_revision`, a revision of
// the branch it was made from, which gc keeps and which keeps its branch from being deleted). A rollback
// or restore to the branch's own history restarts its line there (`store_merges` rows naming the branch
// itself, see `insertRestart`): the revisions it discarded stay in the table and in the log, but the
// branch's later heads no longer reach them, as Git's after `reset --hard`. The revisions of a branch's
// own history are therefore its own since its last restart (or all of them), then the restart's target's
// line, or its source branch's up to its base, and so on: a chain of (branch, from, up to) segments.
// Merge bases also follow recorded merges (see `mergeBases`).

/** The revisions of one branch from `from` up to and including `upTo`, as far as a head reaches into that branch. */
export interface AncestrySegment {
  readonly branchId: number;
  readonly from: number;
  readonly upTo: number;
}

/**
 * Where the line of a branch that reaches `upTo` starts (its last restart at or before it, or 0) and
 * what it continues at before that: the restart's target, or the branch's base (0: nothing).
 */
function lineStart(branch: BranchRow, upTo: number, restarts: readonly RestartRow[]): { from: number; next: number } {
  let restart: RestartRow | undefined;
  for (const row of restarts) {
    if (row.revisionId > upTo) break;
    restart = row;
  }
  return restart ? { from: restart.revisionId, next: restart.target } : { from: 0, next: branch.baseRevision };
}

/** What a branch's head reaches by its own line, nearest first: the branch itself, then what it continued from. */
export function ancestry(repo: StoreRepository, branch: BranchRow): AncestrySegment[] {
  const chain: AncestrySegment[] = [];
  let at: BranchRow | undefined = branch;
  let upTo = branch.headRevision;
  while (at) {
    const { from, next } = lineStart(at, upTo, repo.restartsOf(at.id));
    chain.push({ branchId: at.id, from, upTo });
    // A restart's target and a base are older than the revisions after them, so the chain ends.
    if (next === 0 || next >= upTo) break;
    const row = repo.revision(branch.namespaceId, next);
    at = row ? repo.branchById(row.branchId) : undefined;
    upTo = next;
  }
  return chain;
}

/** Whether `revision` (a revision of branch `branchId`) is reachable from the head the chain starts at. */
export function reaches(chain: readonly AncestrySegment[], branchId: number, revision: number): boolean {
  return chain.some((segment) => segment.branchId === branchId && segment.from <= revision && revision <= segment.upTo);
}

/** A revision of a branch: the point up to which something reaches into that branch. */
export interface ReachPoint {
  readonly branchId: number;
  readonly revision: number;
}

/** A stretch of one branch's line that something reaches: its own revisions from `from` up to `upTo`. */
interface Reached {
  readonly from: number;
  upTo: number;
}

/** What `start` reaches, per branch id: one stretch per line start of the branch that it reaches. */
type Reach = Map<number, Reached[]>;

/** Branch rows, recorded merges and restarts, read once per merge base computation. */
class HistoryReads {
  private readonly branches = new Map<number, BranchRow | undefined>();
  private readonly merges = new Map<number, readonly MergeRow[]>();
  private readonly restarts = new Map<number, readonly RestartRow[]>();
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

  restartsOf(branchId: number): readonly RestartRow[] {
    let rows = this.restarts.get(branchId);
    if (!rows) this.restarts.set(branchId, (rows = this.repo.restartsOf(branchId)));
    return rows;
  }
}

/**
 * Everything `start` reaches: its branch's line up to it, then along three kinds of edges, as Git's
 * parents. A line continues at its last restart's target, or else at the branch it was made from up to
 * its `base_revision`; a merge revision also reaches the head it merged (`store_merges`), and so on from
 * there. Between two restarts a branch is linear, so the newest point reached after a line start stands
 * for all of the branch's revisions from that start up to it.
 */
function reachFrom(repo: StoreRepository, namespaceId: number, start: ReachPoint, reads: HistoryReads): Reach {
  const reached: Reach = new Map();
  const pending: ReachPoint[] = [start];
  while (pending.length > 0) {
    const { branchId, revision } = pending.pop()!;
    const branch = reads.branch(branchId);
    if (!branch) continue;
    const { from, next } = lineStart(branch, revision, reads.restartsOf(branchId));
    const stretches = reached.get(branchId) ?? [];
    reached.set(branchId, stretches);
    const known = stretches.find((stretch) => stretch.from === from);
    if (known && known.upTo >= revision) continue;
    const before = known?.upTo;
    if (known) known.upTo = revision;
    else stretches.push({ from, upTo: revision });
    if (before === undefined && next !== 0) {
      const owner = repo.revision(namespaceId, next);
      if (owner) pending.push({ branchId: owner.branchId, revision: next });
    }
    for (const merge of reads.into(branchId)) {
      if (merge.revisionId > revision) break;
      if (merge.revisionId >= from && (before === undefined || merge.revisionId > before))
        pending.push({ branchId: merge.fromBranchId, revision: merge.fromRevision });
    }
  }
  return reached;
}

/** Whether `reach` includes `point`. */
function includes(reach: Reach, point: ReachPoint): boolean {
  return (reach.get(point.branchId) ?? []).some(
    (stretch) => stretch.from <= point.revision && point.revision <= stretch.upTo,
  );
}

/**
 * The best common ancestors of two heads (`git merge-base --all`), newest first; empty when they share
 * no revision (branches started empty, or from a checkpoint of revision 0). Per stretch of a branch both
 * reach, the lower of the two points they reach is the newest common revision in it; of those, the ones
 * that no other one reaches are the best. With merges recorded both ways there can be several (a
 * criss-cross: each branch merged the other before seeing the other's merge); a merge judges against all
 * of them. A revision a rollback discarded is common only when both still reach it (through a merge
 * that took it), never through the rolled-back branch's later heads.
 */
export function mergeBases(repo: StoreRepository, a: BranchRow, b: BranchRow): number[] {
  const reads = new HistoryReads(repo);
  const reachOf = (branch: BranchRow) =>
    reachFrom(repo, branch.namespaceId, { branchId: branch.id, revision: branch.headRevision }, reads);
  const reachedByB = reachOf(b);
  const common: ReachPoint[] = [];
  for (const [branchId, stretches] of reachOf(a)) {
    for (const mine of stretches) {
      for (const theirs of reachedByB.get(branchId) ?? []) {
        const revision = Math.min(mine.upTo, theirs.upTo);
        if (revision !== 0 && Math.max(mine.from, theirs.from) <= revision) common.push({ branchId, revision });
      }
    }
  }
  const best = common.filter(
    (candidate, index) =>
      common.findIndex((other) => other.revision === candidate.revision) === index &&
      !common.some(
        // Revision ids grow along every edge: only a newer point can reach an older one.
        (other) =>
          other.revision > candidate.revision && includes(reachFrom(repo, a.namespaceId, other, reads), candidate),
      ),
  );
  return best.map((point) => point.revision).sort((x, y) => y - x);
}

/**
 * Whether a revision is in the history of `branch`'s head: its line, what it was made from, restarted
 * at, or merged (recorded merges count, as Git's merge commits' parents do). Read once, asked often.
 */
export function historyOfHead(repo: StoreRepository, branch: BranchRow): (point: ReachPoint) => boolean {
  const reach = reachFrom(
    repo,
    branch.namespaceId,
    { branchId: branch.id, revision: branch.headRevision },
    new HistoryReads(repo),
  );
  return (point) => includes(reach, point);
}

/** Revisions of a branch read per statement while counting what another branch lacks. */
const REVISIONS_PER_READ = 500;

/**
 * How many revisions `branch`'s head reaches that are its own and not in `into`'s history: the work
 * deleting it would lose. Its starting copy (`branch from main@3`, the first revision of a branch made
 * from another) changes nothing, so it does not count.
 */
export function unmergedRevisions(repo: StoreRepository, branch: BranchRow, into: BranchRow): number {
  const chain = ancestry(repo, branch);
  const inInto = historyOfHead(repo, into);
  let unmerged = 0;
  for (let before = branch.headRevision + 1; ;) {
    const page = repo.revisionPage(branch.id, before, REVISIONS_PER_READ);
    for (const row of page) {
      const startingCopy = row.parentId === 0 && branch.baseRevision !== 0;
      const point = { branchId: branch.id, revision: row.id };
      if (!startingCopy && reaches(chain, branch.id, row.id) && !inInto(point)) unmerged += 1;
    }
    if (page.length < REVISIONS_PER_READ) return unmerged;
    before = page[page.length - 1].id;
  }
}
