import type { BranchRow, ChangeRow, NamespaceRow, StoreRepository } from './store-repository.js';

/** Fewest change rows between keyframes (small states would otherwise snapshot on every write). */
export const MIN_KEYFRAME_INTERVAL = 64;

/** Where a new revision goes: the branch (absent: create it) and, for a new branch, what it came from. */
export interface CommitTarget {
  readonly namespace: NamespaceRow;
  readonly branch: BranchRow | undefined;
  readonly branchName: string;
  readonly baseRevision?: number;
}

/** What a commit needs besides its changes. */
export interface CommitContext {
  readonly repo: StoreRepository;
  readonly now: () => number;
  /** Fewest change rows between keyframes ({@link MIN_KEYFRAME_INTERVAL}; tests lower it). */
  readonly keyframeInterval: number;
}

/**
 * Writes one revision: its row, its change rows, the branch head, and a keyframe when the change rows
 * since the last one reach max(64, documents). Call inside a write transaction.
 */
export function commitRevision(
  ctx: CommitContext,
  target: CommitTarget,
  changes: readonly ChangeRow[],
  message: string,
): number {
  const { repo } = ctx;
  const now = ctx.now();
  const { namespace } = target;
  const branch = target.branch ?? repo.insertBranch(namespace.id, target.branchName, target.baseRevision ?? 0, now);
  const id = repo.nextRevisionId(namespace.id);
  repo.insertRevision({
    namespaceId: namespace.id,
    id,
    branchId: branch.id,
    parentId: branch.headRevision,
    message,
    createdAt: now,
  });
  let documents = branch.documentCount;
  for (const change of changes) {
    repo.insertChange(namespace.id, id, change);
    repo.setHead(branch.id, change.keyId, change.afterBlob);
    if (change.type === 0) documents++;
    else if (change.type === 2) documents--;
  }
  let sinceKeyframe = branch.changesSinceKeyframe + changes.length;
  if (sinceKeyframe >= Math.max(ctx.keyframeInterval, documents)) {
    repo.keyframeFromHead(namespace.id, id, branch.id);
    sinceKeyframe = 0;
  }
  repo.updateBranchHead(branch.id, id, documents, sinceKeyframe);
  return id;
}
