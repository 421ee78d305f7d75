import type { MergeResponse } from '../../../shared/store-api.js';
import { mergeBase } from './ancestry.js';
import { boundedList } from './bounded-list.js';
import { compareBytewise } from './bytewise.js';
import { changeList } from './change-lists.js';
import { rowsWithKeys } from './changes.js';
import { conflictError, invalidError, notFoundError } from './errors.js';
import { sourceAt } from './reconstruct.js';
import {
  branchHeadTarget,
  checkExpectedRevision,
  listBranchNames,
  lookupScope,
  revisionInNamespace,
  type EngineContext,
  type Scope,
  type ScopeRows,
  type Target,
} from './selectors.js';
import type { BranchRow, ChangeRow, StoreRepository } from './store-repository.js';
import { commit, noop } from './writes.js';

/** Options of a merge: the branch to merge from, the message, the head expected. */
export interface MergeOptions {
  readonly fromBranch: string;
  readonly message: string;
  readonly expectedRevision?: number | null;
}

/**
 * Three-way merge of another branch's head into the scope's branch (as `dolt merge`), written as one
 * ordinary revision: history stays linear, no revision has two parents. Per document, against the
 * state of the merge base: changed on the source only, the source's content is taken; on the target
 * only, or on both to the same content, the target's stays; on both to different contents (a delete
 * included), it is a conflict, and the merge is refused (409) with nothing written.
 */
export function merge(ctx: EngineContext, scope: Scope, options: MergeOptions): MergeResponse {
  const rows = lookupScope(ctx.repo, scope);
  if (options.fromBranch === scope.branch)
    throw invalidError(
      `from_branch "${options.fromBranch}" is the branch merged into: name another branch of namespace "${scope.namespace}"`,
    );
  const target = existingBranch(rows);
  checkExpectedRevision(rows, options.expectedRevision);
  const source = branchHeadTarget(ctx.repo, rows, options.fromBranch).branch!;
  const base = mergeBase(ctx.repo, target, source);
  const answered = { merge_base: base, from_revision: source.headRevision };
  // The source has not moved since the branches met: there is nothing of it to take.
  if (base === source.headRevision) return { ...noop(rows), ...answered };
  const baseTarget: Target =
    base === 0 ? { revision: 0, branch: undefined, branchName: '' } : revisionInNamespace(ctx.repo, rows, base);
  const { changes, conflicts } = planMerge(ctx.repo, target, source, baseTarget);
  if (conflicts.length > 0) throw mergeConflict(ctx.repo, rows, source, baseTarget, conflicts);
  if (changes.length === 0) return { ...noop(rows), ...answered };
  const message = options.message || mergeMessage(rows, source, baseTarget);
  const revision = commit(ctx, rows, changes, message);
  const list = changeList(ctx.repo, rowsWithKeys(ctx.repo, changes), ctx.limits.response_bytes);
  return { revision, noop: false, ...list, ...answered };
}

/** The branch merged into; 404 when it was never written, since a merge needs its history. */
function existingBranch(rows: ScopeRows): BranchRow {
  if (rows.branch) return rows.branch;
  const branches =
    rows.branchNames.length > 0 ? `its branches are ${listBranchNames(rows.branchNames)}` : 'it has no branches';
  throw notFoundError(
    `branch "${rows.scope.branch}" does not exist in namespace "${rows.scope.namespace}", so there is nothing to ` +
      `merge into; ${branches}. To copy a branch's state to a new one, create it from that branch`,
  );
}

/** A document both sides changed differently since the merge base: its contents by id (null: none). */
interface MergeConflict {
  readonly keyId: number;
  readonly base: number | null;
  readonly target: number | null;
  readonly source: number | null;
}

/**
 * What to write and what conflicts. Only documents whose contents differ between the two heads can
 * need anything (one SQL diff, as a restore from the branch computes it); each is then judged against
 * its content at the merge base.
 */
function planMerge(
  repo: StoreRepository,
  target: BranchRow,
  source: BranchRow,
  base: Target,
): { changes: ChangeRow[]; conflicts: MergeConflict[] } {
  const differing = repo.diffIds(target.id, sourceAt(repo, source, source.headRevision));
  const changes: ChangeRow[] = [];
  const conflicts: MergeConflict[] = [];
  if (differing.length === 0) return { changes, conflicts };
  const baseState = repo.stateMap(sourceAt(repo, base.branch, base.revision));
  for (const row of differing) {
    const atBase = baseState.get(row.keyId) ?? null;
    // The source left it as it was: whatever the target did stays.
    if (row.afterBlob === atBase) continue;
    if (row.beforeBlob === atBase) changes.push(row);
    else conflicts.push({ keyId: row.keyId, base: atBase, target: row.beforeBlob, source: row.afterBlob });
  }
  return { changes, conflicts };
}

/** What one side did to a document since the merge base. */
function sideChange(base: number | null, now: number | null): string {
  if (base === null) return 'created';
  return now === null ? 'deleted' : 'updated';
}

/** 409 naming the conflicting documents (the first few) and what each side did to them. */
function mergeConflict(
  repo: StoreRepository,
  rows: ScopeRows,
  source: BranchRow,
  base: Target,
  conflicts: readonly MergeConflict[],
): Error {
  const into = rows.scope.branch;
  const keyed = conflicts
    .map((conflict) => ({ ...conflict, key: repo.keyText(conflict.keyId) }))
    .sort((a, b) => compareBytewise(a.key, b.key));
  const list = boundedList(keyed, (c) => {
    const both = sideChange(c.base, c.target) === sideChange(c.base, c.source);
    const what = both
      ? `both ${sideChange(c.base, c.target)} it, differently`
      : `"${into}" ${sideChange(c.base, c.target)} it, "${source.name}" ${sideChange(c.base, c.source)} it`;
    return `${JSON.stringify(c.key)} (${what})`;
  });
  const count = conflicts.length === 1 ? '1 document was' : `${conflicts.length} documents were`;
  return conflictError(
    `branch "${source.name}" (revision ${source.headRevision}) cannot be merged into "${into}" of namespace ` +
      `"${rows.scope.namespace}": ${count} changed on both since ${baseName(base)}: ${list}; nothing was written. ` +
      "Make each of them the same on both branches (apply the content you want to both, or one branch's content " +
      'to the other) and merge again',
  );
}

/** The merge base for messages: `main@3`, or that there is none. */
function baseName(base: Target): string {
  return base.revision === 0
    ? 'they started (no common revision)'
    : `their merge base ${base.branchName}@${base.revision}`;
}

/** `merge feature@12 into main (merge base main@3)`: what was merged, from which head, over what. */
function mergeMessage(rows: ScopeRows, source: BranchRow, base: Target): string {
  const over = base.revision === 0 ? 'no common revision' : `merge base ${base.branchName}@${base.revision}`;
  return `merge ${source.name}@${source.headRevision} into ${rows.scope.branch} (${over})`;
}
