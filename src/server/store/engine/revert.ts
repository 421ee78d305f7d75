import type { ApplyResponse, RevertResponse } from '../../../shared/store-api.js';
import { compareBytewise } from './bytewise.js';
import { conflictError, listedConflicts, notFoundError } from './errors.js';
import {
  commitReplay,
  conflictingDocuments,
  headReaches,
  lastChangeOf,
  planReplay,
  previewReplay,
  type ReplayOptions,
} from './revision-replay.js';
import {
  checkExpectedRevision,
  lookupScope,
  removedNote,
  type EngineContext,
  type Scope,
  type ScopeRows,
} from './selectors.js';
import type { BranchRow, ChangeRow, RevisionRow, StoreRepository } from './store-repository.js';

/** Options of a revert: the revision to undo, the message, the head expected. */
export type RevertOptions = ReplayOptions;

/**
 * Writes a revision that undoes what one revision reachable from the branch's head changed (as
 * `git revert`): a document it created is deleted, one it deleted comes back, one it updated gets its
 * content before. Refused (409, nothing written) when a document it changed has changed again since;
 * a document already back at its content before is left as it is, so reverting twice is a no-op.
 */
export function revert(ctx: EngineContext, scope: Scope, options: RevertOptions): ApplyResponse {
  const { rows, reverted, changes } = planRevertOf(ctx, scope, options);
  return commitReplay(ctx, rows, changes, () => options.message || revertMessage(reverted));
}

/**
 * What {@link revert} would answer, computed the same way and refused the same way, with nothing
 * written: `revision` is the branch's head as it is, `dry_run` true.
 */
export function previewRevert(ctx: EngineContext, scope: Scope, options: RevertOptions): RevertResponse {
  const { rows, changes } = planRevertOf(ctx, scope, options);
  return previewReplay(ctx, rows, changes);
}

/** Checks a revert's request and plans it; every refusal (404, 409 and conflicts) is thrown here. */
function planRevertOf(
  ctx: EngineContext,
  scope: Scope,
  options: RevertOptions,
): { rows: ScopeRows; reverted: RevisionRow; changes: ChangeRow[] } {
  const rows = lookupScope(ctx.repo, scope);
  checkExpectedRevision(rows, options.expectedRevision);
  const { branch, reverted } = reachableRevision(ctx.repo, rows, options.revision);
  const { changes, conflicts } = planReplay(ctx.repo, branch, reverted, 'back');
  if (conflicts.length > 0) throw revertConflict(ctx.repo, rows, branch, reverted, conflicts);
  return { rows, reverted, changes };
}

/** The revision to revert: one of the branch's own, or of the branches it was made from up to its base. */
function reachableRevision(
  repo: StoreRepository,
  rows: ScopeRows,
  revision: number,
): { branch: BranchRow; reverted: RevisionRow } {
  const where = `branch "${rows.scope.branch}" of namespace "${rows.scope.namespace}"`;
  if (!rows.branch || !rows.namespace)
    throw notFoundError(
      `revision ${revision} is not in the history of ${where}: the namespace has no branch "${rows.scope.branch}"`,
    );
  const row = repo.revision(rows.namespace.id, revision);
  if (!row || !headReaches(repo, rows.branch, row)) {
    const why = row === undefined ? removedNote(rows.namespace, revision) : mergedNote(repo, rows.branch, row);
    throw notFoundError(`revision ${revision} is not in the history of ${where}${why}`);
  }
  return { branch: rows.branch, reverted: row };
}

/**
 * Where a revision of another branch came into this one through a recorded merge: that merge's
 * revision is this branch's own, and reverting it takes the whole merge back.
 */
function mergedNote(repo: StoreRepository, branch: BranchRow, row: RevisionRow): string {
  const merge = repo
    .mergesInto(branch.id)
    .find((entry) => entry.fromBranchId === row.branchId && entry.fromRevision >= row.id);
  if (merge === undefined) return '';
  return (
    `: it came in with merge revision ${merge.revisionId}; revert that to take the whole merge back, or revert ` +
    `revision ${row.id} on its own branch and merge again`
  );
}

/** 409 naming the documents that changed again since the reverted revision, and the revision that did. */
function revertConflict(
  repo: StoreRepository,
  rows: ScopeRows,
  branch: BranchRow,
  reverted: RevisionRow,
  conflicts: readonly number[],
): Error {
  const list = conflictingDocuments(repo, conflicts, (keyId, key) => {
    const last = lastChangeOf(repo, branch, keyId);
    const since = last && last.id > reverted.id ? `changed again in revision ${last.id}` : 'changed again since';
    return `${JSON.stringify(key)} (${since})`;
  });
  const count = conflicts.length === 1 ? '1 document it changed has' : `${conflicts.length} documents it changed have`;
  const keys = conflicts.map((keyId) => repo.keyText(keyId)).sort(compareBytewise);
  return conflictError(
    `revision ${reverted.id} cannot be reverted on branch "${rows.scope.branch}" of namespace "${rows.scope.namespace}": ` +
      `${count} changed again since: ${list}; nothing was written. Revert the later revisions first ` +
      '(newest first), or apply the contents you want',
    {
      reason: 'revert_conflict',
      headRevision: rows.head,
      ...listedConflicts(keys.map((key) => ({ key, reason: 'changed_again' }))),
    },
  );
}

/** `Revert "<first line of its message>"` and which revision it reverts, as `git revert` writes it. */
function revertMessage(reverted: RevisionRow): string {
  const subject = reverted.message.split('\n', 1)[0];
  return `Revert "${subject}"\n\nThis reverts revision ${reverted.id}.`;
}
