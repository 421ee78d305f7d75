import type { DocumentInput } from '../../../shared/store-api.js';
import { StoreError, invalidError, notFoundError, tooLargeError } from './errors.js';
import type { CommitContext } from './commit.js';
import type { StateCache } from './state-cache.js';
import type { BranchRow, NamespaceRow, StoreRepository } from './store-repository.js';

/** Size bounds of a store write (configurable; see docs/store.md). */
export interface StoreLimits {
  readonly body_bytes: number;
  readonly document_bytes: number;
  readonly documents_per_apply: number;
  /** UTF-8 bytes of keys and contents one whole-state answer may carry (larger states are read in pages). */
  readonly response_bytes: number;
  /** Bytes of JSON one log page carries beyond its first entry (see `logPageBytes`). */
  readonly log_page_bytes: number;
}

/**
 * The defaults of {@link StoreLimits}: 16 MiB bodies, 1 MiB documents, 10,000 documents per apply, 64 MiB
 * states, 16 MiB log pages.
 */
export const DEFAULT_LIMITS: StoreLimits = {
  body_bytes: 16 * 1024 * 1024,
  document_bytes: 1024 * 1024,
  documents_per_apply: 10_000,
  response_bytes: 64 * 1024 * 1024,
  log_page_bytes: 16 * 1024 * 1024,
};

/** What every store operation shares: the repository, limits, clock, keyframe pace and state cache. */
export interface EngineContext extends CommitContext {
  readonly limits: StoreLimits;
  readonly stateCache: StateCache;
}

/** A namespace and branch with the defaults applied. */
export interface Scope {
  readonly namespace: string;
  readonly branch: string;
}

/** Applies the scope defaults: empty namespace is `default`, empty branch is `main`. */
export function normaliseScope(scope: { namespace?: string; branch?: string } | undefined): Scope {
  return { namespace: scope?.namespace || 'default', branch: scope?.branch || 'main' };
}

/** The rows behind a scope; either may be missing (nothing written there yet). */
export interface ScopeRows {
  readonly scope: Scope;
  readonly namespace: NamespaceRow | undefined;
  readonly branch: BranchRow | undefined;
  readonly head: number;
  /**
   * The namespace's branches, oldest first, listed only when the scope's branch does not exist (empty
   * otherwise): a refusal then names the ones there are, since the scope's may be a typo.
   */
  readonly branchNames: readonly string[];
}

/** Looks up a scope's namespace and branch. */
export function lookupScope(repo: StoreRepository, scope: Scope): ScopeRows {
  const namespace = repo.namespace(scope.namespace);
  const branch = namespace ? repo.branch(namespace.id, scope.branch) : undefined;
  const branchNames = namespace && !branch ? repo.branchesOf(namespace.id).map((row) => row.name) : [];
  return { scope, namespace, branch, head: branch?.headRevision ?? 0, branchNames };
}

/** Names branches for a message: `"main", "canary"`, the first five and how many more. */
export function listBranchNames(names: readonly string[]): string {
  const shown = names
    .slice(0, 5)
    .map((name) => `"${name}"`)
    .join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/**
 * The scope's branch, for an operation that needs its history (merge into it, cherry-pick or roll back
 * onto it); 404 when it was never written, naming the namespace's branches, since the name may be a
 * typo and the write would otherwise start a branch. `nothing` says what there is none of, `advice`
 * what to do instead.
 */
export function existingBranch(rows: ScopeRows, nothing: string, advice: string): BranchRow {
  if (rows.branch) return rows.branch;
  const branches =
    rows.branchNames.length > 0 ? `its branches are ${listBranchNames(rows.branchNames)}` : 'it has no branches';
  throw notFoundError(
    `branch "${rows.scope.branch}" does not exist in namespace "${rows.scope.namespace}", so ${nothing}; ` +
      `${branches}. ${advice}`,
  );
}

/** A state to read: a revision and the branch whose history holds it (none for revision 0). */
export interface Target {
  readonly revision: number;
  readonly branch: BranchRow | undefined;
  /** Name of the branch the revision belongs to (empty for revision 0, which belongs to none). */
  readonly branchName: string;
}

/** The scope's head as a target. */
export function headTarget(rows: ScopeRows): Target {
  return { revision: rows.head, branch: rows.branch, branchName: rows.scope.branch };
}

/**
 * A revision of the scope's branch, or the revision the branch was made from (its base, which gc keeps:
 * a branch compared with where it started, as `git diff main...feature`); 404 when the branch's
 * history holds neither.
 */
export function revisionInBranch(repo: StoreRepository, rows: ScopeRows, revision: number): Target {
  if (rows.branch !== undefined && rows.branch.baseRevision === revision && revision !== 0)
    return revisionInNamespace(repo, rows, revision);
  const row = rows.namespace ? repo.revision(rows.namespace.id, revision) : undefined;
  if (!row || !rows.branch || row.branchId !== rows.branch.id) {
    const why = !rows.branch ? `: the namespace has no branch "${rows.scope.branch}"` : removed(rows, revision, row);
    throw notFoundError(
      `revision ${revision} is not in the history of branch "${rows.scope.branch}" of namespace "${rows.scope.namespace}"${why}`,
    );
  }
  return { revision, branch: rows.branch, branchName: rows.branch.name };
}

/** Why a revision the namespace once wrote cannot be read: gc or a branch's deletion removed it. */
function removed(rows: ScopeRows, revision: number, row: unknown): string {
  return row === undefined ? removedNote(rows.namespace, revision) : '';
}

/**
 * What a 404 for a missing revision adds when the namespace did write it (it numbers them in order):
 * gc or a branch's deletion removed it, which a revision never written is told apart from.
 */
export function removedNote(namespace: { readonly lastRevision: number } | undefined, revision: number): string {
  return namespace !== undefined && revision <= namespace.lastRevision
    ? ' (it was removed by garbage collection, or with the branch it was on)'
    : '';
}

/** Any revision of the scope's namespace; 404 when it does not exist (never written, or collected). */
export function revisionInNamespace(repo: StoreRepository, rows: ScopeRows, revision: number): Target {
  const row = rows.namespace ? repo.revision(rows.namespace.id, revision) : undefined;
  if (!row)
    throw notFoundError(
      `revision ${revision} does not exist in namespace "${rows.scope.namespace}"${removed(rows, revision, row)}`,
    );
  const branch = repo.branchById(row.branchId);
  return { revision, branch, branchName: branch?.name ?? '' };
}

/**
 * The name a checkpoint is kept under: the name as given when one is stored so (names stored before
 * they were normalised), otherwise its NFC form, the form new names are stored in, so a decomposed
 * `café` finds the composed one.
 */
export function storedCheckpointName(repo: StoreRepository, namespaceId: number, name: string): string {
  return repo.checkpoint(namespaceId, name) ? name : name.normalize('NFC');
}

/** The revision a checkpoint of the namespace points at; 404 when there is no such checkpoint. */
export function checkpointTarget(repo: StoreRepository, rows: ScopeRows, name: string): Target {
  const namespaceId = rows.namespace?.id;
  const checkpoint =
    namespaceId === undefined ? undefined : repo.checkpoint(namespaceId, storedCheckpointName(repo, namespaceId, name));
  if (!checkpoint) throw notFoundError(`checkpoint "${name}" does not exist in namespace "${rows.scope.namespace}"`);
  if (checkpoint.revisionId === 0) return { revision: 0, branch: undefined, branchName: '' };
  return revisionInNamespace(repo, rows, checkpoint.revisionId);
}

/** Checkpoint before revision (of the scope's branch) before head: the selection of state, diff, rollback and branching. */
export function selectInBranch(
  repo: StoreRepository,
  rows: ScopeRows,
  selector: { readonly revision: number; readonly checkpoint: string },
): Target {
  if (selector.checkpoint) return checkpointTarget(repo, rows, selector.checkpoint);
  if (selector.revision) return revisionInBranch(repo, rows, selector.revision);
  return headTarget(rows);
}

/** The head of another branch of the namespace; 404 when it does not exist. */
export function branchHeadTarget(repo: StoreRepository, rows: ScopeRows, name: string): Target {
  const branch = rows.namespace ? repo.branch(rows.namespace.id, name) : undefined;
  if (!branch) throw notFoundError(`branch "${name}" does not exist in namespace "${rows.scope.namespace}"`);
  return { revision: branch.headRevision, branch, branchName: branch.name };
}

/** 409 when the caller's `expected_revision` is not the branch head (compare-and-swap). */
export function checkExpectedRevision(rows: ScopeRows, expected: number | null | undefined): void {
  if (expected === undefined || expected === null || expected === rows.head) return;
  // No write made this branch: "retry with expected_revision 0" would create it, and a mistyped
  // name is the likelier cause than a write that came first.
  if (!rows.branch) {
    const branches =
      rows.branchNames.length > 0
        ? `its branches are ${listBranchNames(rows.branchNames)}`
        : 'the namespace has no branches';
    throw new StoreError(
      'conflict',
      `branch "${rows.scope.branch}" does not exist in namespace "${rows.scope.namespace}", so it is not at the ` +
        `expected_revision ${expected}; ${branches}. To start this branch, write without expected_revision ` +
        '(or with expected_revision 0)',
      rows.head,
    );
  }
  throw new StoreError(
    'conflict',
    `branch "${rows.scope.branch}" of namespace "${rows.scope.namespace}" is at revision ${rows.head}, not the expected_revision ${expected}: ` +
      `another write came first; read the branch at revision ${rows.head} and retry with expected_revision ${rows.head}`,
    rows.head,
  );
}

/** Rejects empty, duplicate and oversized document lists (400 or 413). */
export function checkDocuments(documents: readonly DocumentInput[], limits: StoreLimits): void {
  if (documents.length === 0) throw invalidError('documents must list at least one document');
  if (documents.length > limits.documents_per_apply) {
    throw tooLargeError(
      `documents lists ${documents.length} documents; the limit is ${limits.documents_per_apply} per request`,
    );
  }
  const seen = new Map<string, number>();
  documents.forEach((doc, index) => {
    const first = seen.get(doc.key);
    if (first !== undefined) throw invalidError(`documents[${index}].key "${doc.key}" repeats documents[${first}].key`);
    seen.set(doc.key, index);
    // UTF-8 takes at most three bytes per UTF-16 unit: count bytes only when that bound is over.
    if (doc.content !== undefined && doc.content.length * 3 > limits.document_bytes) {
      const bytes = Buffer.byteLength(doc.content, 'utf8');
      if (bytes > limits.document_bytes) {
        throw tooLargeError(
          `documents[${index}].content (key ${JSON.stringify(doc.key)}) is ${bytes} bytes; the limit is ` +
            `${limits.document_bytes} bytes per document (store.limits.document_bytes)`,
        );
      }
    }
  });
}
