import type { MergeResponse, MergeSide } from '../../../shared/store-api.js';
import { mergeBases, unmergedRevisions } from './ancestry.js';
import { boundedList } from './bounded-list.js';
import { compareBytewise } from './bytewise.js';
import { changeList } from './change-lists.js';
import { rowsWithKeys } from './changes.js';
import { conflictError, invalidError, listedConflicts, type KeyConflict } from './errors.js';
import { sourceAt } from './reconstruct.js';
import {
  branchHeadTarget,
  checkExpectedRevision,
  existingBranch,
  lookupScope,
  revisionInNamespace,
  type EngineContext,
  type Scope,
  type ScopeRows,
  type Target,
} from './selectors.js';
import type { BranchRow, ChangeRow, StoreRepository } from './store-repository.js';
import { commit, noop } from './writes.js';

/** Options of a merge: the branch to merge from, the message, the head expected, how conflicts resolve. */
export interface MergeOptions {
  readonly fromBranch: string;
  readonly message: string;
  readonly expectedRevision?: number | null;
  /** The source's head the caller expects to merge (what it previewed). */
  readonly expectedFromRevision?: number | null;
  /** The side every conflicting document takes unless `resolve` names it; none: a conflict refuses the merge. */
  readonly strategy?: MergeSide;
  /** The side each named conflicting document takes; a key that is no conflict is refused (400). */
  readonly resolve?: Readonly<Record<string, MergeSide>>;
}

/**
 * Three-way merge of another branch's head into the scope's branch (as `dolt merge`), written as one
 * revision whose parent is the target's previous head, and recorded in `store_merges` as having taken
 * the source's head, so later merge bases count it as Git counts a merge commit's second parent. Per
 * document, against the state of the merge base: changed on the source only, the source's content is
 * taken; on the target only, or on both to the same content, the target's stays; on both to different
 * contents (a delete included), it is a conflict, and the merge is refused (409) with nothing written,
 * unless `strategy` or `resolve` picks a side for it (as `dolt conflicts resolve --ours`/`--theirs`).
 */
export function merge(ctx: EngineContext, scope: Scope, options: MergeOptions): MergeResponse {
  const plan = planMergeOf(ctx, scope, options);
  const { rows, target, source, bases, changes, answered } = plan;
  if (writesNothing(plan)) return { ...noop(rows), ...answered };
  const message = options.message || mergeMessage(rows, source, bases, answered.resolved);
  const revision = commit(ctx, rows, changes, message);
  ctx.repo.insertMerge(target.namespaceId, revision, target.id, source.id, source.headRevision);
  return { revision, ...plannedChanges(ctx, plan) };
}

/**
 * What {@link merge} would answer, computed the same way and refused the same way, with nothing
 * written: `revision` is the target's head as it is, `dry_run` true.
 */
export function previewMerge(ctx: EngineContext, scope: Scope, options: MergeOptions): MergeResponse {
  const plan = planMergeOf(ctx, scope, options);
  if (writesNothing(plan)) return { ...noop(plan.rows), ...plan.answered, dry_run: true };
  return { revision: plan.rows.head, ...plannedChanges(ctx, plan), dry_run: true };
}

/**
 * A merge with no content to take is a no-op, unless it settled conflicts: keeping ours for every one
 * still writes a revision (with no changes) and records the merge, as `git merge -s ours` makes a
 * merge commit, so the choice is kept and merging again does not ask it again.
 */
function writesNothing(plan: MergePlan): boolean {
  return plan.changes.length === 0 && plan.answered.resolved === undefined;
}

/** A merge worked out and checked, not written: the changes to take from the source, over which bases. */
interface MergePlan {
  readonly rows: ScopeRows;
  readonly target: BranchRow;
  readonly source: BranchRow;
  readonly bases: readonly Target[];
  readonly changes: readonly ChangeRow[];
  readonly answered: {
    readonly merge_base: number;
    readonly from_revision: number;
    readonly resolved?: ResolvedConflict[];
  };
}

/** Checks a merge's request and plans it; every refusal (400, 404, 409 and conflicts) is thrown here. */
function planMergeOf(ctx: EngineContext, scope: Scope, options: MergeOptions): MergePlan {
  const rows = lookupScope(ctx.repo, scope);
  if (options.fromBranch === scope.branch)
    throw invalidError(
      `from_branch "${options.fromBranch}" is the branch merged into: name another branch of namespace "${scope.namespace}"`,
    );
  const target = existingBranch(
    rows,
    'there is nothing to merge into',
    "To copy a branch's state to a new one, create it from that branch",
  );
  checkExpectedRevision(rows, options.expectedRevision);
  const source = branchHeadTarget(ctx.repo, rows, options.fromBranch).branch!;
  checkExpectedSource(source, options.expectedFromRevision);
  const revisions = mergeBases(ctx.repo, target, source);
  const newest = revisions[0] ?? 0;
  const answered = { merge_base: newest, from_revision: source.headRevision };
  // The target already reaches the source's head: there is nothing of it to take.
  if (newest === source.headRevision) {
    resolveConflicts(ctx.repo, [], options);
    return { rows, target, source, bases: [], changes: [], answered };
  }
  const bases: Target[] =
    revisions.length === 0
      ? [{ revision: 0, branch: undefined, branchName: '' }]
      : revisions.map((revision) => revisionInNamespace(ctx.repo, rows, revision));
  const planned = planMerge(ctx.repo, target, source, bases);
  const { taken, resolved, unresolved } = resolveConflicts(ctx.repo, planned.conflicts, options);
  if (unresolved.length > 0) throw mergeConflict(ctx.repo, rows, source, bases, unresolved);
  const changes = [...planned.changes, ...taken];
  return { rows, target, source, bases, changes, answered: resolved.length > 0 ? { ...answered, resolved } : answered };
}

/**
 * Refuses (409 `not_merged`, nothing deleted) the deletion of the scope's branch while its head reaches
 * revisions of its own that `into`'s history does not hold, as `git branch -d` refuses: a clean-up after
 * a merge that failed loses nothing. A missing scope branch is left to the deletion's own 404.
 */
export function refuseUnmerged(ctx: EngineContext, scope: Scope, into: string): void {
  const rows = lookupScope(ctx.repo, scope);
  if (!rows.branch) return;
  if (into === scope.branch)
    throw invalidError(
      `require_merged_into "${into}" is the branch to delete: name the branch its work should be merged into`,
    );
  const target = branchHeadTarget(ctx.repo, rows, into).branch!;
  const unmerged = unmergedRevisions(ctx.repo, rows.branch, target);
  if (unmerged === 0) return;
  const differing = ctx.repo.diffIds(target.id, sourceAt(ctx.repo, rows.branch, rows.head)).length;
  const revisions = unmerged === 1 ? '1 of its revisions is' : `${unmerged} of its revisions are`;
  const documents = differing === 1 ? '1 document differs' : `${differing} documents differ`;
  throw conflictError(
    `branch "${scope.branch}" of namespace "${scope.namespace}" (revision ${rows.head}) is not merged into "${into}": ` +
      `${revisions} not in the history of "${into}", and ${documents} between their heads; nothing was deleted. ` +
      `Merge it into "${into}" first, or delete it without require_merged_into to discard them`,
    { reason: 'not_merged', headRevision: rows.head, unmergedRevisions: unmerged },
  );
}

/** A conflict settled by `strategy` or `resolve`: its key and the side it took. */
interface ResolvedConflict {
  readonly key: string;
  readonly side: MergeSide;
}

/**
 * Settles the conflicts `resolve` names, then the rest by `strategy`: `theirs` takes the source's
 * content (a change to write), `ours` keeps the target's (nothing to write). A `resolve` key that is no
 * conflict is refused (400, naming it): a script written for an earlier state of the branches notices.
 */
function resolveConflicts(
  repo: StoreRepository,
  conflicts: readonly MergeConflict[],
  options: MergeOptions,
): { taken: ChangeRow[]; resolved: ResolvedConflict[]; unresolved: MergeConflict[] } {
  const named = new Map<number, MergeSide>();
  const stale: string[] = [];
  const conflicting = new Set(conflicts.map((conflict) => conflict.keyId));
  for (const [key, side] of Object.entries(options.resolve ?? {})) {
    const keyId = repo.keyId(key);
    if (keyId === undefined || !conflicting.has(keyId)) stale.push(key);
    else named.set(keyId, side);
  }
  if (stale.length > 0) throw staleResolve(stale, conflicts.length);
  const taken: ChangeRow[] = [];
  const resolved: ResolvedConflict[] = [];
  const unresolved: MergeConflict[] = [];
  for (const conflict of conflicts) {
    const side = named.get(conflict.keyId) ?? options.strategy;
    if (side === undefined) {
      unresolved.push(conflict);
      continue;
    }
    resolved.push({ key: repo.keyText(conflict.keyId), side });
    if (side === 'theirs') taken.push(takeTheirs(conflict));
  }
  resolved.sort((a, b) => compareBytewise(a.key, b.key));
  return { taken, resolved, unresolved };
}

/** The change that makes the target's content of a conflicting document the source's. */
function takeTheirs({ keyId, target, source }: MergeConflict): ChangeRow {
  const type = target === null ? 0 : source === null ? 2 : 1;
  return { keyId, type, beforeBlob: target, afterBlob: source };
}

/** 400 naming the `resolve` keys that are no conflict of this merge (the first few). */
function staleResolve(keys: readonly string[], conflicts: number): Error {
  const sorted = [...keys].sort(compareBytewise);
  const what = sorted.length === 1 ? 'key' : 'keys';
  const now =
    conflicts === 0
      ? 'the merge has no conflicts'
      : `the merge has ${conflicts === 1 ? '1 conflict' : `${conflicts} conflicts`}; preview it (dry_run) to see them`;
  return invalidError(
    `resolve names ${sorted.length} ${what} that ${sorted.length === 1 ? 'is' : 'are'} not in conflict: ` +
      `${boundedList(sorted, (key) => JSON.stringify(key))}; ${now}, and resolve only those`,
  );
}

/** The answer's part that names what a merge takes: its changes (bounded), merge base and source head. */
function plannedChanges(ctx: EngineContext, plan: MergePlan): Omit<MergeResponse, 'revision'> {
  const list = changeList(ctx.repo, rowsWithKeys(ctx.repo, plan.changes), ctx.limits.response_bytes);
  return { noop: false, ...list, ...plan.answered };
}

/** Refuses a merge whose source moved past the head the caller previewed (409, as a moved target is). */
function checkExpectedSource(source: BranchRow, expected: number | null | undefined): void {
  if (expected == null || source.headRevision === expected) return;
  throw conflictError(
    `branch "${source.name}" is at revision ${source.headRevision}, not the expected_from_revision ${expected}: ` +
      `it moved since it was read; read it again and retry with expected_from_revision ${source.headRevision}`,
    { reason: 'head_moved', fromHeadRevision: source.headRevision },
  );
}

/**
 * A document both sides changed differently since the merge base: its contents by id (null: none);
 * `ambiguous` when there are several merge bases and they disagree on which side changed it.
 */
interface MergeConflict {
  readonly keyId: number;
  readonly base: number | null;
  readonly target: number | null;
  readonly source: number | null;
  readonly ambiguous: boolean;
}

/** What a document's content at a merge base makes of it: keep the target's, take the source's, or conflict. */
type Verdict = 'keep' | 'take' | 'conflict';

/** The verdict for a document that differs between the heads (`before`: target, `after`: source). */
function verdict(atBase: number | null, row: ChangeRow): Verdict {
  // The source left it as it was: whatever the target did stays.
  if (row.afterBlob === atBase) return 'keep';
  return row.beforeBlob === atBase ? 'take' : 'conflict';
}

/**
 * What to write and what conflicts. Only documents whose contents differ between the two heads can
 * need anything (one SQL diff, as a restore from the branch computes it); each is then judged against
 * its content at the merge base. With several merge bases (a criss-cross) a document merges only when
 * every base gives the same verdict, and conflicts otherwise: refusing is safer than picking one.
 */
function planMerge(
  repo: StoreRepository,
  target: BranchRow,
  source: BranchRow,
  bases: readonly Target[],
): { changes: ChangeRow[]; conflicts: MergeConflict[] } {
  const differing = repo.diffIds(target.id, sourceAt(repo, source, source.headRevision));
  const changes: ChangeRow[] = [];
  const conflicts: MergeConflict[] = [];
  if (differing.length === 0) return { changes, conflicts };
  const baseStates = bases.map((base) => repo.stateMap(sourceAt(repo, base.branch, base.revision)));
  for (const row of differing) {
    const atBases = baseStates.map((state) => state.get(row.keyId) ?? null);
    const verdicts = atBases.map((atBase) => verdict(atBase, row));
    const ambiguous = verdicts.some((v) => v !== verdicts[0]);
    if (!ambiguous && verdicts[0] === 'keep') continue;
    if (!ambiguous && verdicts[0] === 'take') changes.push(row);
    else
      conflicts.push({ keyId: row.keyId, base: atBases[0], target: row.beforeBlob, source: row.afterBlob, ambiguous });
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
  bases: readonly Target[],
  conflicts: readonly MergeConflict[],
): Error {
  const into = rows.scope.branch;
  const keyed = conflicts
    .map((conflict) => ({ ...conflict, key: repo.keyText(conflict.keyId) }))
    .sort((a, b) => compareBytewise(a.key, b.key));
  const list = boundedList(keyed, (c) => {
    if (c.ambiguous) return `${JSON.stringify(c.key)} (the merge bases disagree on which side changed it)`;
    const both = sideChange(c.base, c.target) === sideChange(c.base, c.source);
    const what = both
      ? `both ${sideChange(c.base, c.target)} it, differently`
      : `"${into}" ${sideChange(c.base, c.target)} it, "${source.name}" ${sideChange(c.base, c.source)} it`;
    return `${JSON.stringify(c.key)} (${what})`;
  });
  const count = conflicts.length === 1 ? '1 document was' : `${conflicts.length} documents were`;
  const listed = keyed.map((c): KeyConflict => ({ key: c.key, reason: c.ambiguous ? 'ambiguous' : 'both_changed' }));
  return conflictError(
    `branch "${source.name}" (revision ${source.headRevision}) cannot be merged into "${into}" of namespace ` +
      `"${rows.scope.namespace}": ${count} changed on both since ${baseName(bases)}: ${list}; nothing was written. ` +
      "Make each of them the same on both branches (apply the content you want to both, or one branch's content " +
      'to the other) and merge again',
    {
      reason: 'merge_conflict',
      headRevision: rows.head,
      fromHeadRevision: source.headRevision,
      mergeBase: bases[0]?.revision ?? 0,
      ...listedConflicts(listed),
    },
  );
}

/** `merge base main@3`, `merge bases feature@7 and main@6`, or that there is none. */
function basesText(bases: readonly Target[]): string {
  if (bases.length === 1 && bases[0].revision === 0) return 'no common revision';
  const names = bases.map((base) => `${base.branchName}@${base.revision}`);
  return bases.length === 1
    ? `merge base ${names[0]}`
    : `merge bases ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The merge base for the conflict message: `their merge base main@3`, or that there is none. */
function baseName(bases: readonly Target[]): string {
  const text = basesText(bases);
  return text === 'no common revision' ? 'they started (no common revision)' : `their ${text}`;
}

/**
 * `merge feature@12 into main (merge base main@3)`: what was merged, from which head, over what; then
 * how its conflicts were resolved, when some were: `, resolving 2 conflicts: "a.yaml" (ours), "b.yaml" (theirs)`.
 */
function mergeMessage(
  rows: ScopeRows,
  source: BranchRow,
  bases: readonly Target[],
  resolved: readonly ResolvedConflict[] = [],
): string {
  const merged = `merge ${source.name}@${source.headRevision} into ${rows.scope.branch} (${basesText(bases)})`;
  if (resolved.length === 0) return merged;
  const count = resolved.length === 1 ? '1 conflict' : `${resolved.length} conflicts`;
  return `${merged}, resolving ${count}: ${boundedList(resolved, (c) => `${JSON.stringify(c.key)} (${c.side})`)}`;
}
