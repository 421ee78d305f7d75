import type { Change } from '../../../shared/store-api.js';
import { apiChange, sortChanges } from './changes.js';
import { CHANGE_TYPES, type ChangeTextRow, type StoreRepository } from './store-repository.js';

// A list of changes carries the contents before and after each one, and one list can cover every
// document of a branch: a rollback, a restore, a replace, a branch's first revision, a diff against an
// old revision. Past `response_bytes` of contents a list comes with keys and types only, as a
// write-only token sees it, and says so; the contents are read in pages (GET /v1/revisions/:id with
// limit and after, or GET /v1/state pages for a diff) rather than built in memory at once.

/** Changes as an answer carries them; `contents_omitted` when they passed the bound and carry no contents. */
export interface ChangeList {
  readonly changes: Change[];
  readonly contents_omitted?: true;
}

/** A change to answer, its contents by id (or, for an after not yet stored, as text). */
export interface ChangeRef {
  readonly key: string;
  readonly type: 0 | 1 | 2;
  readonly beforeBlob: number | null;
  readonly afterBlob: number | null;
  readonly after?: string;
}

/** Changes with their keys and types only, saying their contents were left out. */
export const keysOnly = (changes: readonly { key: string; type: 0 | 1 | 2 }[]): ChangeList => ({
  changes: sortChanges(changes.map(({ key, type }) => ({ key, type: CHANGE_TYPES[type] }))),
  contents_omitted: true,
});

const utf8 = (text: string | null | undefined): number => (text ? Buffer.byteLength(text) : 0);

/**
 * Changes sorted by key, with contents when they total at most `maxBytes` UTF-8 bytes. Stored contents
 * are measured from their record headers before any is read.
 */
export function changeList(repo: StoreRepository, refs: readonly ChangeRef[], maxBytes: number): ChangeList {
  let bytes = 0;
  for (const ref of refs) {
    if (ref.beforeBlob !== null) bytes += repo.contentBytes(ref.beforeBlob);
    if (ref.after !== undefined) bytes += utf8(ref.after);
    else if (ref.afterBlob !== null) bytes += repo.contentBytes(ref.afterBlob);
    if (bytes > maxBytes) return keysOnly(refs);
  }
  const changes = refs.map((ref) =>
    apiChange(
      ref.key,
      ref.type,
      repo.contentOrUndefined(ref.beforeBlob),
      ref.after ?? repo.contentOrUndefined(ref.afterBlob),
    ),
  );
  return { changes: sortChanges(changes) };
}

/**
 * Changes from rows already in key order, read one at a time while their contents total at most
 * `maxBytes`. Once they pass it, reading stops (no more content is read) and the list is `keys()`.
 */
export function streamedChangeList(
  rows: Iterable<ChangeTextRow>,
  maxBytes: number,
  keys: () => readonly { key: string; type: 0 | 1 | 2 }[],
): ChangeList {
  const changes: Change[] = [];
  let bytes = 0;
  for (const [key, type, before, after] of rows) {
    bytes += utf8(before) + utf8(after);
    // Leaving the loop closes the statement, so keys() may run.
    if (bytes > maxBytes) break;
    changes.push(apiChange(key, type, before ?? undefined, after ?? undefined));
  }
  return bytes > maxBytes ? keysOnly(keys()) : { changes };
}

/** API changes from rows already joined with text (the database sorted them by key bytes). */
export function textRowsToChanges(rows: readonly ChangeTextRow[]): Change[] {
  return rows.map(([key, type, before, after]) => apiChange(key, type, before ?? undefined, after ?? undefined));
}
