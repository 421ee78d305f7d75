import type { ApplyMode, ApplyResponse, DocumentInput } from '../../../shared/store-api.js';
import { ancestry, reaches } from './ancestry.js';
import { changeList } from './change-lists.js';
import { headState, materialise, planDocuments, rowsWithKeys } from './changes.js';
import { commitRevision } from './commit.js';
import { conflictError, invalidError, notFoundError, type ConflictReason } from './errors.js';
import { sourceAgainstHead, sourceAt } from './reconstruct.js';
import { changesOfKeys, keysInMessage } from './restore-keys.js';
import {
  branchHeadTarget,
  checkDocuments,
  checkExpectedRevision,
  checkpointTarget,
  existingBranch,
  headTarget,
  listBranchNames,
  lookupScope,
  revisionInBranch,
  revisionInNamespace,
  selectInBranch,
  storedCheckpointName,
  type EngineContext,
  type Scope,
  type ScopeRows,
  type Target,
} from './selectors.js';
import type { BranchRow, ChangeRow, CheckpointRow, StoreRepository } from './store-repository.js';

// Write operations. Each runs inside the caller's one write transaction (see StoreEngine).

/** Options of an apply. */
export interface ApplyOptions {
  readonly message: string;
  readonly mode: ApplyMode;
  readonly expectedRevision?: number | null;
}

/** Creates or updates the listed documents (or makes them the whole state in replace mode). */
export function applyDocuments(
  ctx: EngineContext,
  scope: Scope,
  documents: readonly DocumentInput[],
  options: ApplyOptions,
): ApplyResponse {
  checkDocuments(documents, ctx.limits);
  const rows = lookupScope(ctx.repo, scope);
  checkExpectedRevision(rows, options.expectedRevision);
  const planned = planDocuments(ctx.repo, headState(ctx.repo, rows.branch?.id), documents, options.mode);
  if (planned.length === 0) return noop(rows);
  const revision = commit(ctx, rows, materialise(ctx.repo, planned), options.message || 'apply');
  return { revision, noop: false, ...changeList(ctx.repo, planned, ctx.limits.response_bytes) };
}

/** Options of a rollback: the target (checkpoint before revision before head). */
export interface RollbackOptions {
  readonly revision: number;
  readonly checkpoint: string;
  readonly message: string;
  readonly expectedRevision?: number | null;
}

/**
 * Writes a revision that returns the branch to one of its own revisions (or a checkpoint). A branch never
 * written has no history to return to: 404 naming the namespace's branches, as a typo would otherwise
 * start a branch and answer success.
 */
export function rollback(ctx: EngineContext, scope: Scope, options: RollbackOptions): ApplyResponse {
  const message = options.message || ((target: Target) => sourceMessage('rollback to', target, options.checkpoint));
  return rewrite(ctx, scope, options.expectedRevision, message, (rows) => {
    // A revision is refused first as not in the branch's history; a checkpoint or the head resolve.
    const target = selectInBranch(ctx.repo, rows, options);
    existingBranch(
      rows,
      'it has no history to roll back',
      'Roll back a branch that exists, or restore to copy a state into a new branch',
    );
    return target;
  });
}

/** Options of a restore: the source (checkpoint, then branch head, then any revision of the namespace). */
export interface RestoreOptions {
  readonly fromBranch: string;
  readonly fromRevision: number;
  readonly fromCheckpoint: string;
  readonly message: string;
  readonly expectedRevision?: number | null;
  /** Only these documents (a key absent at the source is deleted); undefined: the whole state. */
  readonly keys?: readonly string[];
}

/**
 * Writes a revision that makes the branch's state equal another branch's, revision's or checkpoint's,
 * or, with `keys`, only those documents.
 */
export function restore(ctx: EngineContext, scope: Scope, options: RestoreOptions): ApplyResponse {
  const { keys } = options;
  const verb = keys ? `restore ${keysInMessage(keys)} from` : 'restore from';
  const message = options.message || ((target: Target) => sourceMessage(verb, target, options.fromCheckpoint));
  const select = (rows: ScopeRows): Target => {
    if (options.fromCheckpoint) return checkpointTarget(ctx.repo, rows, options.fromCheckpoint);
    if (options.fromBranch) return branchHeadTarget(ctx.repo, rows, options.fromBranch);
    if (options.fromRevision) return revisionInNamespace(ctx.repo, rows, options.fromRevision);
    return headTarget(rows);
  };
  return rewrite(ctx, scope, options.expectedRevision, message, select, keys);
}

/** Options of a branch creation: the source (checkpoint before revision before the scope's head). */
export interface CreateBranchOptions {
  readonly fromRevision: number;
  readonly fromCheckpoint: string;
}

/** Creates branch `name` from the scope's branch with a first revision that creates every document. */
export function createBranch(
  ctx: EngineContext,
  scope: Scope,
  name: string,
  options: CreateBranchOptions,
): { name: string; base_revision: number; head_revision: number } {
  const rows = lookupScope(ctx.repo, scope);
  if (rows.namespace && ctx.repo.branch(rows.namespace.id, name)) {
    throw conflictError(`branch "${name}" already exists in namespace "${scope.namespace}"`, { reason: 'exists' });
  }
  // Branching from a branch that was never written (a typo: `mian`) would silently make an empty branch.
  if (!rows.branch && !options.fromRevision && !options.fromCheckpoint) {
    throw notFoundError(
      `branch "${scope.branch}" does not exist in namespace "${scope.namespace}": branch from one that exists, ` +
        `or write to "${name}" to start it empty`,
    );
  }
  const source = selectInBranch(ctx.repo, rows, { revision: options.fromRevision, checkpoint: options.fromCheckpoint });
  const changes = ctx.repo.diffIds(0, sourceAt(ctx.repo, source.branch, source.revision));
  const namespace = rows.namespace ?? ctx.repo.ensureNamespace(scope.namespace, ctx.now());
  const head = commitRevision(
    ctx,
    { namespace, branch: undefined, branchName: name, baseRevision: source.revision },
    changes,
    branchMessage(source, options.fromCheckpoint),
  );
  return { name, base_revision: source.revision, head_revision: head };
}

/**
 * The message a rollback or restore is written with when the caller gave none: where the state came
 * from (`rollback to main@3`, `restore from checkpoint "v1" (main@3)`), so the log says what was
 * rolled back to, as a new branch's first revision does.
 */
function sourceMessage(verb: string, source: Target, checkpoint: string): string {
  if (source.revision === 0) return `${verb} checkpoint "${checkpoint}" (revision 0, no documents)`;
  const at = source.branchName ? `${source.branchName}@${source.revision}` : `revision ${source.revision}`;
  return checkpoint ? `${verb} checkpoint "${checkpoint}" (${at})` : `${verb} ${at}`;
}

/**
 * The message of a new branch's first revision: `branch from <branch>@<revision>`. A checkpoint taken
 * where nothing was written points at revision 0, which belongs to no branch: naming the scope's branch
 * there would claim an origin the branch never had, so the message names the checkpoint instead.
 */
function branchMessage(source: Target, checkpoint: string): string {
  if (source.revision === 0) return `branch from checkpoint "${checkpoint}" (revision 0, no documents)`;
  return `branch from ${source.branchName}@${source.revision}`;
}

/**
 * Options of a checkpoint: the revision it marks (0 for the head), the head expected, create-only, and
 * the revision an existing checkpoint must still mark to be moved.
 */
export interface CheckpointOptions {
  readonly revision: number;
  readonly expectedRevision?: number | null;
  readonly createOnly: boolean;
  readonly expectedCheckpointRevision?: number | null;
}

/**
 * Points checkpoint `name` at the scope's head or at `options.revision` of its branch (moving it if it
 * exists, unless `createOnly`), and makes that revision a keyframe.
 */
export function createCheckpoint(
  ctx: EngineContext,
  scope: Scope,
  name: string,
  description: string,
  options: CheckpointOptions = { revision: 0, createOnly: false },
): { name: string; revision_id: number } {
  const expectedMark = options.expectedCheckpointRevision;
  if (options.createOnly && expectedMark !== undefined && expectedMark !== null)
    throw invalidError(
      'expected_checkpoint_revision moves a checkpoint only while it marks that revision, and create_only true ' +
        'never moves one: send one of them',
    );
  const rows = lookupScope(ctx.repo, scope);
  refuseUnwrittenBranch(ctx, rows);
  checkExpectedRevision(rows, options.expectedRevision);
  const target = options.revision ? revisionInBranch(ctx.repo, rows, options.revision) : headTarget(rows);
  const namespace = rows.namespace ?? ctx.repo.ensureNamespace(scope.namespace, ctx.now());
  const stored = storedCheckpointName(ctx.repo, namespace.id, name);
  const existing = ctx.repo.checkpoint(namespace.id, stored);
  if (existing && options.createOnly)
    throw conflictError(
      `checkpoint "${stored}" already exists in namespace "${scope.namespace}", at revision ${existing.revisionId}; ` +
        'send create_only false to move it (with a token not limited to branches), or choose another name',
      { reason: 'exists', checkpointRevision: existing.revisionId },
    );
  checkCheckpointMark(scope.namespace, stored, existing, expectedMark, 'expected_checkpoint_revision');
  keyframeForCheckpoint(ctx, namespace.id, target);
  ctx.repo.upsertCheckpoint(namespace.id, stored, target.revision, description, ctx.now());
  return { name: stored, revision_id: target.revision };
}

/** A checkpoint is read and restored often and kept through gc: its revision gets a state of its own. */
function keyframeForCheckpoint(ctx: EngineContext, namespaceId: number, target: Target): void {
  const branch = target.branch;
  if (!branch || target.revision === 0 || ctx.repo.revision(namespaceId, target.revision)?.keyframe) return;
  if (target.revision === branch.headRevision) {
    ctx.repo.keyframeFromHead(namespaceId, target.revision, branch.id);
    ctx.repo.resetKeyframeCounter(branch.id);
  } else ctx.repo.keyframeFromSource(namespaceId, target.revision, sourceAt(ctx.repo, branch, target.revision));
}

/**
 * A checkpoint on a branch never written, in a namespace that has branches: 404, as `git tag -f` refuses
 * a ref that does not resolve. A misspelled branch (`mian`) would otherwise point the checkpoint at
 * revision 0, and moving an existing one there would drop gc's protection of the revision it marked.
 * A namespace with nothing written at all still takes a checkpoint of its empty state, at revision 0.
 */
function refuseUnwrittenBranch(ctx: EngineContext, rows: ScopeRows): void {
  if (rows.branch || !rows.namespace) return;
  const branches = ctx.repo.branchesOf(rows.namespace.id).map((branch) => branch.name);
  if (branches.length === 0) return;
  throw notFoundError(
    `branch "${rows.scope.branch}" does not exist in namespace "${rows.scope.namespace}", so it has no head to ` +
      `checkpoint; its branches are ${listBranchNames(branches)}`,
  );
}

/**
 * Deletes a checkpoint of the namespace; 404 when there is none, 409 when `expectedRevision` is given and
 * the checkpoint marks another revision (another writer moved it since it was read).
 */
export function deleteCheckpoint(
  ctx: EngineContext,
  namespaceName: string,
  name: string,
  expectedRevision?: number | null,
): void {
  const namespace = ctx.repo.namespace(namespaceName);
  const stored = namespace ? storedCheckpointName(ctx.repo, namespace.id, name) : name;
  const existing = namespace && ctx.repo.checkpoint(namespace.id, stored);
  if (!namespace || !existing)
    throw notFoundError(`checkpoint "${name}" does not exist in namespace "${namespaceName}"`);
  checkCheckpointMark(namespaceName, stored, existing, expectedRevision, 'expected_revision');
  ctx.repo.deleteCheckpoint(namespace.id, stored);
}

/** The 409 reason of a checkpoint that no longer marks the revision a writer expected. */
const CHECKPOINT_MOVED: ConflictReason = 'checkpoint_moved';

/**
 * 409 `checkpoint_moved` unless the checkpoint marks `expected` (nothing expected: no check). A missing
 * checkpoint marks nothing: between a writer's read and its change another one deleted it.
 */
function checkCheckpointMark(
  namespaceName: string,
  name: string,
  existing: CheckpointRow | undefined,
  expected: number | null | undefined,
  field: string,
): void {
  if (expected === undefined || expected === null || existing?.revisionId === expected) return;
  if (!existing)
    throw conflictError(
      `checkpoint "${name}" does not exist in namespace "${namespaceName}", so it does not mark the ${field} ` +
        `${expected}: another writer deleted it; send create_only true to create it again`,
      { reason: CHECKPOINT_MOVED },
    );
  throw conflictError(
    `checkpoint "${name}" of namespace "${namespaceName}" marks revision ${existing.revisionId}, not the ${field} ` +
      `${expected}: another writer moved it; decide again with it at revision ${existing.revisionId}, and retry ` +
      `with ${field} ${existing.revisionId}`,
    { reason: CHECKPOINT_MOVED, checkpointRevision: existing.revisionId },
  );
}

/** Answer of a branch deletion: its head when deleted (for the record) and how many revisions went with it. */
export interface DeletedBranch {
  readonly name: string;
  readonly head_revision: number;
  readonly pruned: number;
}

/**
 * Deletes the scope's branch with its whole history, as `git branch -D` followed by a gc: its revisions,
 * their changes and keyframes, its head, and every key nothing references any more; contents nothing
 * references are listed for the content sweeper, which deletes them after this transaction. Refused
 * (409) while a checkpoint points at one of its revisions or another branch was created from one, since
 * gc promises to keep both; and, with `expectedRevision`, unless the head is still that revision.
 */
export function deleteBranch(ctx: EngineContext, scope: Scope, expectedRevision?: number | null): DeletedBranch {
  const rows = lookupScope(ctx.repo, scope);
  const where = `branch "${scope.branch}" of namespace "${scope.namespace}"`;
  if (!rows.branch) throw notFoundError(`branch "${scope.branch}" does not exist in namespace "${scope.namespace}"`);
  checkExpectedRevision(rows, expectedRevision);
  const checkpoint = ctx.repo.checkpointOnBranch(rows.branch.id);
  if (checkpoint) {
    throw conflictError(
      `${where} holds revision ${checkpoint[1]} of checkpoint "${checkpoint[0]}": delete or move the checkpoint first`,
      { reason: 'in_use', headRevision: rows.head },
    );
  }
  const child = ctx.repo.branchBasedOn(rows.branch.id);
  if (child) {
    throw conflictError(
      `${where} holds revision ${child[1]}, the base of branch "${child[0]}": delete that branch first`,
      { reason: 'in_use', headRevision: rows.head },
    );
  }
  const pruned = ctx.repo.deleteBranch(rows.branch);
  ctx.repo.markUnreferenced();
  return { name: scope.branch, head_revision: rows.head, pruned };
}

/** Writes a revision that turns the branch's state into the `select`ed one (after the compare-and-swap check). */
function rewrite(
  ctx: EngineContext,
  scope: Scope,
  expectedRevision: number | null | undefined,
  message: string | ((target: Target) => string),
  select: (rows: ScopeRows) => Target,
  keys?: readonly string[],
): ApplyResponse {
  const rows = lookupScope(ctx.repo, scope);
  checkExpectedRevision(rows, expectedRevision);
  const target = select(rows);
  const all = ctx.repo.diffIds(
    rows.branch?.id ?? 0,
    sourceAgainstHead(ctx.repo, rows.branch, target.branch, target.revision),
  );
  const changes = keys ? changesOfKeys(ctx.repo, all, keys) : all;
  if (changes.length === 0) return noop(rows);
  const revision = commit(ctx, rows, changes, typeof message === 'string' ? message : message(target));
  // Bringing back some documents is an edit on top of the history, not a return to an earlier point of it.
  if (rows.branch && !keys) restartAtOwnHistory(ctx.repo, rows.branch, target, revision);
  return { revision, noop: false, ...changeList(ctx.repo, rowsWithKeys(ctx.repo, changes), ctx.limits.response_bytes) };
}

/**
 * A branch returned to a point of its own history (a revision its head reaches by its own line, or
 * revision 0) discards what came after it, as `dolt reset --hard` does: its line restarts there, so its
 * later heads no longer reach the discarded revisions nor the merges they recorded, so merging the
 * same branch again brings its changes back. Those merge records stay: another branch that took one of
 * the discarded revisions still reaches what that merge took. A state copied from elsewhere (another
 * branch's head or revision) keeps the branch's history and its merges.
 */
function restartAtOwnHistory(repo: StoreRepository, branch: BranchRow, target: Target, revision: number): void {
  const ownHistory =
    target.revision === 0 ||
    (target.branch !== undefined && reaches(ancestry(repo, branch), target.branch.id, target.revision));
  if (!ownHistory) return;
  repo.insertRestart(branch.namespaceId, revision, branch.id, target.revision);
}

/** Writes `changes` as a new revision of the scope's branch (creating the namespace or branch when new). */
export function commit(ctx: EngineContext, rows: ScopeRows, changes: readonly ChangeRow[], message: string): number {
  const namespace = rows.namespace ?? ctx.repo.ensureNamespace(rows.scope.namespace, ctx.now());
  return commitRevision(ctx, { namespace, branch: rows.branch, branchName: rows.scope.branch }, changes, message);
}

/** The answer of a write that changed nothing: the head as it is. */
export function noop(rows: ScopeRows): ApplyResponse {
  return { revision: rows.head, noop: true, changes: [] };
}
