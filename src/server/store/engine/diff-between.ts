import { changeList, streamedChangeList, type ChangeList, type ChangeRef } from './change-lists.js';
import { rowsWithKeys } from './changes.js';
import { sourceAgainstHead, sourceAt } from './reconstruct.js';
import {
  branchHeadTarget,
  checkpointTarget,
  revisionInNamespace,
  type EngineContext,
  type ScopeRows,
  type Target,
} from './selectors.js';
import type { ChangeRow, ChangeTextRow, StoreRepository } from './store-repository.js';

// The SQL diff compares a branch's materialised head with any state. A diff from an older revision to
// a head runs it the other way round and turns each change back (a create becomes a delete); only two
// states of which neither is a head are compared in memory, as maps of key id to content id.

/**
 * The side a diff goes from (a Gatehouse extension): a checkpoint of the namespace, then the head of a
 * branch, then any revision of the namespace; zero and empty mean unused.
 */
export interface DiffFrom {
  readonly revision: number;
  readonly checkpoint: string;
  readonly branch: string;
}

/**
 * The state `from` selects, or undefined when it selects none (the diff then goes from the scope's
 * head, as without it). A revision is looked up among the namespace's revisions, whichever branch
 * wrote it: 404 when it was never written or is gone, saying when gc or a branch's deletion removed it.
 */
export function diffFromTarget(repo: StoreRepository, rows: ScopeRows, from: DiffFrom | undefined): Target | undefined {
  if (!from) return undefined;
  if (from.checkpoint) return checkpointTarget(repo, rows, from.checkpoint);
  if (from.branch) return branchHeadTarget(repo, rows, from.branch);
  if (from.revision) return revisionInNamespace(repo, rows, from.revision);
  return undefined;
}

/** True when `target` is its branch's head, whose materialised table the SQL diff reads (0: the empty state). */
const isHead = (target: Target): boolean =>
  target.revision === 0 || (target.branch !== undefined && target.revision === target.branch.headRevision);

/** The branch whose head table holds `target` (0, which no branch has, for the empty state). */
const headBranchId = (target: Target): number => (target.revision === 0 ? 0 : (target.branch?.id ?? 0));

/** What turns the state of `from` into that of `to`, sorted by key and bounded by `response_bytes`. */
export function changesBetween(ctx: EngineContext, from: Target, to: Target): ChangeList {
  const { repo } = ctx;
  const maxBytes = ctx.limits.response_bytes;
  if (isHead(from)) {
    const current = headBranchId(from);
    const source = sourceAgainstHead(repo, from.branch, to.branch, to.revision);
    return streamedChangeList(repo.diffText(current, source), maxBytes, () => repo.diffKeys(current, source));
  }
  if (isHead(to)) {
    const current = headBranchId(to);
    const source = sourceAgainstHead(repo, to.branch, from.branch, from.revision);
    return streamedChangeList(reversedRows(repo.diffText(current, source)), maxBytes, () =>
      repo.diffKeys(current, source).map(({ key, type }) => ({ key, type: reversedType(type) })),
    );
  }
  return changeList(repo, changesInMemory(repo, from, to), maxBytes);
}

/** A create undone is a delete, and the other way round; an update stays one. */
const reversedType = (type: 0 | 1 | 2): 0 | 1 | 2 => (2 - type) as 0 | 1 | 2;

function* reversedRows(rows: Iterable<ChangeTextRow>): Generator<ChangeTextRow> {
  for (const [key, type, before, after] of rows) yield [key, reversedType(type), after, before];
}

/** The changes between two states read whole (contents by id; equal contents share one id). */
function changesInMemory(repo: StoreRepository, from: Target, to: Target): ChangeRef[] {
  const before = repo.stateMap(sourceAt(repo, from.branch, from.revision));
  const after = repo.stateMap(sourceAt(repo, to.branch, to.revision));
  const rows: ChangeRow[] = [];
  for (const [keyId, afterBlob] of after) {
    const beforeBlob = before.get(keyId);
    if (beforeBlob === undefined) rows.push({ keyId, type: 0, beforeBlob: null, afterBlob });
    else if (beforeBlob !== afterBlob) rows.push({ keyId, type: 1, beforeBlob, afterBlob });
  }
  for (const [keyId, beforeBlob] of before) {
    if (!after.has(keyId)) rows.push({ keyId, type: 2, beforeBlob, afterBlob: null });
  }
  return rowsWithKeys(repo, rows);
}
