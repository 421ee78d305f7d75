import type { ApplyMode, Change, DocumentInput } from '../../../shared/store-api.js';
import type { ChangeRef } from './change-lists.js';
import { compareBytewise } from './bytewise.js';
import { CHANGE_TYPES, type ChangeRow, type StoreRepository } from './store-repository.js';

/** A state to change: the blob of a key, and every entry (for replace mode). */
export interface BaseState {
  get(keyId: number): number | undefined;
  entries(): Iterable<[number, number]>;
}

/** The materialised head of a branch as a {@link BaseState} (point lookups, no full read). */
export function headState(repo: StoreRepository, branchId: number | undefined): BaseState {
  if (branchId === undefined) return new Map();
  return { get: (keyId) => repo.headBlob(branchId, keyId), entries: () => repo.headMap(branchId) };
}

/**
 * A change planned from documents, in text space; key and content ids are resolved only when written.
 * The content before is kept by id: a replace can delete every document of a branch.
 */
export interface PlannedChange {
  readonly key: string;
  readonly keyId: number | undefined;
  readonly type: 0 | 1 | 2;
  readonly beforeBlob: number | null;
  readonly afterBlob: null;
  readonly after?: string;
}

/** What applying `documents` to `base` would change (nothing is written). */
export function planDocuments(
  repo: StoreRepository,
  base: BaseState,
  documents: readonly DocumentInput[],
  mode: ApplyMode,
): PlannedChange[] {
  const planned: PlannedChange[] = [];
  const listed = mode === 'replace' ? new Set<number>() : undefined;
  for (const doc of documents) {
    const keyId = repo.keyId(doc.key);
    const current = keyId === undefined ? undefined : base.get(keyId);
    if (keyId !== undefined) listed?.add(keyId);
    if (doc.delete) {
      if (current !== undefined) planned.push({ key: doc.key, keyId, type: 2, beforeBlob: current, afterBlob: null });
      continue;
    }
    const content = doc.content ?? '';
    if (current === undefined) {
      planned.push({ key: doc.key, keyId, type: 0, beforeBlob: null, afterBlob: null, after: content });
      continue;
    }
    if (repo.content(current) !== content)
      planned.push({ key: doc.key, keyId, type: 1, beforeBlob: current, afterBlob: null, after: content });
  }
  if (listed) {
    for (const [keyId, blobId] of base.entries()) {
      if (!listed.has(keyId))
        planned.push({ key: repo.keyText(keyId), keyId, type: 2, beforeBlob: blobId, afterBlob: null });
    }
  }
  return planned;
}

/** Interns keys and contents of planned changes (inside the write transaction). */
export function materialise(repo: StoreRepository, planned: readonly PlannedChange[]): ChangeRow[] {
  return planned.map((change) => ({
    keyId: change.keyId ?? repo.ensureKey(change.key),
    type: change.type,
    beforeBlob: change.beforeBlob,
    afterBlob: change.after === undefined ? null : repo.ensureBlob(change.after),
  }));
}

/** Id-space change rows with their key text, to answer with (see change-lists.ts). */
export function rowsWithKeys(repo: StoreRepository, rows: readonly ChangeRow[]): ChangeRef[] {
  return rows.map((row) => ({ ...row, key: repo.keyText(row.keyId) }));
}

/** One change as the API shows it: no `before` for a create, no `after` for a delete. */
export function apiChange(key: string, type: 0 | 1 | 2, before: string | undefined, after: string | undefined): Change {
  const change: { key: string; type: Change['type']; before?: string; after?: string } = {
    key,
    type: CHANGE_TYPES[type],
  };
  if (type !== 0) change.before = before;
  if (type !== 2) change.after = after;
  return change;
}

/** Sorts changes by key bytes (UTF-8), in place. */
export function sortChanges(changes: Change[]): Change[] {
  return changes.sort((a, b) => compareBytewise(a.key, b.key));
}
