import { changeList, type ChangeList, type ChangeRef } from './change-lists.js';
import { sourceAt } from './reconstruct.js';
import type { Target } from './selectors.js';
import type { StoreRepository } from './store-repository.js';

// A diff of named documents (`git diff <a> <b> -- <path>`): each key is looked up on both sides rather
// than the whole diff being run and filtered, so naming one document of a large branch costs one
// indexed lookup per side at a head (a state elsewhere is rebuilt once, as a whole diff would).

/** The content id of each stored key at `target`; a key it does not hold is absent. */
function blobsAt(repo: StoreRepository, target: Target, keyIds: readonly number[]): Map<number, number> {
  const blobs = new Map<number, number>();
  // The empty state reads as the head of branch 0, which holds nothing.
  const source = sourceAt(repo, target.branch, target.revision);
  const older = source.kind === 'head' ? undefined : repo.stateMap(source);
  for (const keyId of keyIds) {
    const blob = older ? older.get(keyId) : repo.headBlob(source.branchId, keyId);
    if (blob !== undefined) blobs.set(keyId, blob);
  }
  return blobs;
}

/**
 * What turns the documents named by `keys` at `from` into those at `to`, as restore with `keys` would
 * write them: a key neither side holds changes nothing. Bounded by `maxBytes` as a whole diff is.
 */
export function changesOfKeysBetween(
  repo: StoreRepository,
  from: Target,
  to: Target,
  keys: readonly string[],
  maxBytes: number,
): ChangeList {
  const stored = [...new Set(keys)].flatMap((key) => {
    const keyId = repo.keyId(key);
    return keyId === undefined ? [] : [{ key, keyId }];
  });
  const keyIds = stored.map(({ keyId }) => keyId);
  const before = blobsAt(repo, from, keyIds);
  const after = blobsAt(repo, to, keyIds);
  const refs: ChangeRef[] = [];
  for (const { key, keyId } of stored) {
    const beforeBlob = before.get(keyId) ?? null;
    const afterBlob = after.get(keyId) ?? null;
    if (beforeBlob === afterBlob) continue;
    const type = beforeBlob === null ? 0 : afterBlob === null ? 2 : 1;
    refs.push({ key, type, beforeBlob, afterBlob });
  }
  return changeList(repo, refs, maxBytes);
}

/** The planned changes of a documents preview that touch one of `keys`. */
export function refsOfKeys(refs: readonly ChangeRef[], keys: readonly string[]): ChangeRef[] {
  const named = new Set(keys);
  return refs.filter((ref) => named.has(ref.key));
}
