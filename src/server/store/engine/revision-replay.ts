import type { ApplyResponse } from '../../../shared/store-api.js';
import { ancestry, reaches } from './ancestry.js';
import { boundedList } from './bounded-list.js';
import { compareBytewise } from './bytewise.js';
import { changeList } from './change-lists.js';
import { rowsWithKeys } from './changes.js';
import type { EngineContext, ScopeRows } from './selectors.js';
import type { BranchRow, ChangeRow, RevisionRow, StoreRepository } from './store-repository.js';
import { commit, noop } from './writes.js';

// Revert and cherry-pick both replay one revision's changes onto a branch's head, revert backwards
// (each document from what the revision left to what it found) and cherry-pick forwards. Both are
// three-way per document, as in git: a document already where the replay would take it needs nothing,
// one where the replay starts from is changed, and one anywhere else is in the way.

/** Options of a replay: the revision to replay, the message, the head expected. */
export interface ReplayOptions {
  readonly revision: number;
  readonly message: string;
  readonly expectedRevision?: number | null;
}

/** Which way a replay goes: `back` undoes the revision (revert), `forward` makes it again (cherry-pick). */
export type ReplayDirection = 'back' | 'forward';

/** A replay worked out on a branch's head: the changes to write, and the key ids of the documents in the way. */
export interface ReplayPlan {
  readonly changes: ChangeRow[];
  readonly conflicts: number[];
}

/** Plans replaying the revision's changes on the branch's head, document by document. */
export function planReplay(
  repo: StoreRepository,
  branch: BranchRow,
  replayed: RevisionRow,
  direction: ReplayDirection,
): ReplayPlan {
  const changes: ChangeRow[] = [];
  const conflicts: number[] = [];
  for (const change of repo.changeRowsOf(replayed.namespaceId, replayed.id)) {
    // Back: from what the revision left to what it found; forward: the other way round.
    const [from, to] =
      direction === 'back' ? [change.afterBlob, change.beforeBlob] : [change.beforeBlob, change.afterBlob];
    const now = repo.headBlob(branch.id, change.keyId) ?? null;
    // Already as the replay would leave it (replayed before, or changed so by hand): nothing to do.
    if (now === to) continue;
    if (now !== from) {
      conflicts.push(change.keyId);
      continue;
    }
    const type = to === null ? 2 : now === null ? 0 : 1;
    changes.push({ keyId: change.keyId, type, beforeBlob: now, afterBlob: to });
  }
  return { changes, conflicts };
}

/** Writes a replay's changes as a new revision of the scope's branch; the head as a no-op when there are none. */
export function commitReplay(
  ctx: EngineContext,
  rows: ScopeRows,
  changes: readonly ChangeRow[],
  message: () => string,
): ApplyResponse {
  if (changes.length === 0) return noop(rows);
  const revision = commit(ctx, rows, changes, message());
  return { revision, noop: false, ...changeList(ctx.repo, rowsWithKeys(ctx.repo, changes), ctx.limits.response_bytes) };
}

/** What {@link commitReplay} would answer, with nothing written: `revision` is the head as it is, `dry_run` true. */
export function previewReplay(
  ctx: EngineContext,
  rows: ScopeRows,
  changes: readonly ChangeRow[],
): ApplyResponse & { readonly dry_run: true } {
  if (changes.length === 0) return { ...noop(rows), dry_run: true };
  const list = changeList(ctx.repo, rowsWithKeys(ctx.repo, changes), ctx.limits.response_bytes);
  return { revision: rows.head, noop: false, ...list, dry_run: true };
}

/** Whether the branch's head reaches a revision: one of its own, or of the branches it was made from up to its base. */
export function headReaches(repo: StoreRepository, branch: BranchRow, row: RevisionRow): boolean {
  return reaches(ancestry(repo, branch), row.branchId, row.id);
}

/** The newest revision of the branch's own that changed a document, if any did. */
export function lastChangeOf(repo: StoreRepository, branch: BranchRow, keyId: number): RevisionRow | undefined {
  return repo.revisionPageTouching(branch.id, keyId, Number.MAX_SAFE_INTEGER, 1)[0];
}

/**
 * The documents in a replay's way, for its refusal: in key order, the first ten as `describe` names
 * them, then how many more.
 */
export function conflictingDocuments(
  repo: StoreRepository,
  keyIds: readonly number[],
  describe: (keyId: number, key: string) => string,
): string {
  const keyed = keyIds
    .map((keyId) => ({ keyId, key: repo.keyText(keyId) }))
    .sort((a, b) => compareBytewise(a.key, b.key));
  return boundedList(keyed, ({ keyId, key }) => describe(keyId, key));
}
