import type { ApplyResponse, CherryPickResponse } from '../../../shared/store-api.js';
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
  existingBranch,
  lookupScope,
  removedNote,
  type EngineContext,
  type Scope,
  type ScopeRows,
} from './selectors.js';
import type { BranchRow, ChangeRow, RevisionRow, StoreRepository } from './store-repository.js';

/** Options of a cherry-pick: the revision to take, the message, the head expected. */
export type CherryPickOptions = ReplayOptions;

/**
 * Writes a revision that makes on the branch's head what one revision of another branch changed (as
 * `git cherry-pick`): a document it created or updated gets its content after, one it deleted is
 * deleted. Refused (409, nothing written) when a document it changed is neither as it found it nor as
 * it left it; one already as it left it needs nothing, so cherry-picking twice is a no-op. A merge
 * revision's changes are the ones it wrote relative to its first parent, as `git cherry-pick -m 1`.
 */
export function cherryPick(ctx: EngineContext, scope: Scope, options: CherryPickOptions): ApplyResponse {
  const { rows, picked, changes } = planCherryPickOf(ctx, scope, options);
  return commitReplay(ctx, rows, changes, () => options.message || cherryPickMessage(ctx.repo, picked));
}

/**
 * What {@link cherryPick} would answer, computed the same way and refused the same way, with nothing
 * written: `revision` is the branch's head as it is, `dry_run` true.
 */
export function previewCherryPick(ctx: EngineContext, scope: Scope, options: CherryPickOptions): CherryPickResponse {
  const { rows, changes } = planCherryPickOf(ctx, scope, options);
  return previewReplay(ctx, rows, changes);
}

/** Checks a cherry-pick's request and plans it; every refusal (404, 409 and conflicts) is thrown here. */
function planCherryPickOf(
  ctx: EngineContext,
  scope: Scope,
  options: CherryPickOptions,
): { rows: ScopeRows; picked: RevisionRow; changes: ChangeRow[] } {
  const rows = lookupScope(ctx.repo, scope);
  const branch = existingBranch(
    rows,
    'there is nothing to cherry-pick onto',
    'Create the branch first, then cherry-pick onto it',
  );
  checkExpectedRevision(rows, options.expectedRevision);
  const picked = revisionToPick(ctx.repo, rows, branch, options.revision);
  const { changes, conflicts } = planReplay(ctx.repo, branch, picked, 'forward');
  if (conflicts.length > 0) throw cherryPickConflict(ctx.repo, rows, branch, picked, conflicts);
  return { rows, picked, changes };
}

/**
 * The revision to pick: any of the namespace's that the branch's head does not already reach. One it
 * reaches is refused, as git refuses an empty cherry-pick: its changes are the branch's own history.
 */
function revisionToPick(repo: StoreRepository, rows: ScopeRows, branch: BranchRow, revision: number): RevisionRow {
  const row = repo.revision(branch.namespaceId, revision);
  if (!row)
    throw notFoundError(
      `revision ${revision} does not exist in namespace "${rows.scope.namespace}"${removedNote(rows.namespace, revision)}`,
    );
  if (headReaches(repo, branch, row))
    throw conflictError(
      `revision ${revision} of branch "${branchName(repo, row)}" is already in the history of branch "${branch.name}" ` +
        `of namespace "${rows.scope.namespace}", so there is nothing to cherry-pick; nothing was written. ` +
        'To take it back, revert it instead',
      { reason: 'already_applied', headRevision: branch.headRevision },
    );
  refuseStartingCopy(repo, rows, row);
  return row;
}

/**
 * Refuses a branch's first revision when the branch was made from another (`branch from main@3`): its
 * changes create every document against the empty state, but relative to where the branch started it
 * changed nothing, so picking it would create or conflict with every document for no change at all.
 * The first revision of a branch a write started (no base) is a real change and may be picked.
 */
function refuseStartingCopy(repo: StoreRepository, rows: ScopeRows, row: RevisionRow): void {
  const owner = repo.branchById(row.branchId);
  if (row.parentId !== 0 || !owner || owner.baseRevision === 0) return;
  const start = repo.revision(row.namespaceId, owner.baseRevision);
  const source = start ? `${branchName(repo, start)}@${start.id}` : `revision ${owner.baseRevision}`;
  throw conflictError(
    `revision ${row.id} is the first revision of branch "${owner.name}" of namespace "${rows.scope.namespace}": ` +
      `its starting copy of ${source}, which changes nothing; nothing was written. Cherry-pick the revisions of ` +
      `"${owner.name}" after it, or merge the branch`,
    { reason: 'already_applied', headRevision: rows.head },
  );
}

/** 409 naming the documents that are neither as the picked revision found them nor as it left them. */
function cherryPickConflict(
  repo: StoreRepository,
  rows: ScopeRows,
  branch: BranchRow,
  picked: RevisionRow,
  conflicts: readonly number[],
): Error {
  const list = conflictingDocuments(repo, conflicts, (keyId, key) => {
    const last = lastChangeOf(repo, branch, keyId);
    const absent = repo.headBlob(branch.id, keyId) === undefined;
    let why = absent ? `not on "${branch.name}"` : `different since "${branch.name}" was made`;
    if (last) why = `${absent ? 'deleted' : 'changed'} in revision ${last.id}`;
    return `${JSON.stringify(key)} (${why})`;
  });
  const count = conflicts.length === 1 ? '1 document it changed is' : `${conflicts.length} documents it changed are`;
  const keys = conflicts.map((keyId) => repo.keyText(keyId)).sort(compareBytewise);
  return conflictError(
    `revision ${picked.id} of branch "${branchName(repo, picked)}" cannot be cherry-picked onto branch "${branch.name}" ` +
      `of namespace "${rows.scope.namespace}": ${count} different there from what it found: ${list}; nothing was ` +
      `written. Apply the contents you want to "${branch.name}", or make those documents what revision ${picked.id} ` +
      'found and cherry-pick again',
    {
      reason: 'cherry_pick_conflict',
      headRevision: branch.headRevision,
      ...listedConflicts(keys.map((key) => ({ key, reason: 'differs' }))),
    },
  );
}

/** The name of the branch a revision was written on. */
function branchName(repo: StoreRepository, row: RevisionRow): string {
  return repo.branchById(row.branchId)?.name ?? '';
}

/** The picked revision's message and where it came from, as `git cherry-pick -x` writes it. */
function cherryPickMessage(repo: StoreRepository, picked: RevisionRow): string {
  return `${picked.message}\n\n(cherry picked from revision ${picked.id} of branch "${branchName(repo, picked)}")`;
}
