import type { BranchRenameResponse } from '../../../shared/store-api.js';
import { conflictError, invalidError } from './errors.js';
import { checkExpectedRevision, existingBranch, lookupScope, type EngineContext, type Scope } from './selectors.js';

/** The branch an empty `branch` means (see normaliseScope). */
const DEFAULT_BRANCH = 'main';

/**
 * Renames the scope's branch to `newName`, as `git branch -m`. Everything else refers to a branch by
 * its id (its revisions, merge records, the bases of branches made from it) or to a revision (checkpoints),
 * so its history, checkpoints, merges and merge bases carry over unchanged; only the name moves, and the
 * old one is free. Refused: renaming `main` (400), an unknown branch (404), its own name (400), a name in
 * use (409), and,
 * with `expectedRevision`, a head that moved (409).
 */
export function renameBranch(
  ctx: EngineContext,
  scope: Scope,
  newName: string,
  expectedRevision?: number | null,
): BranchRenameResponse {
  // Every read and write that names no branch means `main`: renamed, those would find a new, empty
  // branch (and writes would start one) where its history was, without a word to the client.
  if (scope.branch === DEFAULT_BRANCH)
    throw invalidError(
      `name "${DEFAULT_BRANCH}" is the default branch (an empty branch means "${DEFAULT_BRANCH}"), so it is not renamed: ` +
        `every request that names no branch would then read an empty "${DEFAULT_BRANCH}" and write a new one. To give ` +
        `its history another name, create a branch from it (POST /v1/branches)`,
    );
  const rows = lookupScope(ctx.repo, scope);
  const branch = existingBranch(rows, 'there is nothing to rename', 'Check the name: GET /v1/branches lists them all');
  // Checked before "taken": the advice to delete the branch that holds the name would delete this one.
  if (newName === branch.name)
    throw invalidError(
      `new_name "${newName}" is already the branch's name: nothing to rename; choose another name for it`,
    );
  if (ctx.repo.branch(branch.namespaceId, newName))
    throw conflictError(
      `new_name "${newName}" is taken: branch "${newName}" already exists in namespace "${scope.namespace}"; ` +
        'delete it first (DELETE /v1/branches) or choose another name',
      { reason: 'exists' },
    );
  checkExpectedRevision(rows, expectedRevision);
  ctx.repo.renameBranch(branch.id, newName);
  return {
    name: newName,
    previous_name: branch.name,
    base_revision: branch.baseRevision,
    head_revision: branch.headRevision,
  };
}
