import { MAX_PAGE_LIMIT, type Change, type LogEntry } from '../../../shared/store-api.js';
import { compareBytewise } from './bytewise.js';
import { keysOnly, textRowsToChanges, type ChangeList } from './change-lists.js';
import { apiChange } from './changes.js';
import { notFoundError } from './errors.js';
import { itemsWithin } from './page-bound.js';
import { removedNote, type EngineContext } from './selectors.js';
import { CHANGE_TYPES, type KeyChangeRow, type RevisionRow } from './store-repository.js';

// Reading one revision (`GET /v1/revisions/:id`): all its changes, a page of them, or those of named
// documents; with contents, or with each side's size only (`git show --stat` rather than `git show`),
// which reads no content, so a client lists a revision of large documents and reads one of them alone.

/** Where a page of a revision's changes starts (`after`, a key; empty for the first) and its most changes. */
export interface ChangePage {
  readonly limit: number;
  readonly after: string;
}

/** What a revision read carries: contents or sizes only, and the changes of named documents only (none: all). */
export interface RevisionReadOptions {
  readonly contents: boolean;
  readonly keys: readonly string[];
}

/** A revision as `GET /v1/revisions/:id` answers it. */
export type RevisionAnswer = LogEntry & { next_cursor?: string };

/**
 * One revision of the namespace as a log entry; 404 when it does not exist (never written, or
 * collected). With `page`, only its changes with keys after `page.after`, at most `page.limit` of them
 * and at most `response_bytes` of contents past the first, with `next_cursor` when more follow: how
 * the contents of a revision too large for one answer are read. With `keys`, only the changes of those
 * documents (a document the revision did not change is left out). Without `contents`, each change with
 * its key, type and sizes, and `contents_omitted`.
 */
export function revision(
  ctx: EngineContext,
  namespaceName: string,
  id: number,
  page: ChangePage | undefined,
  { contents, keys }: RevisionReadOptions,
): RevisionAnswer {
  const namespace = ctx.repo.namespace(namespaceName);
  const row = namespace ? ctx.repo.revision(namespace.id, id) : undefined;
  if (!row)
    throw notFoundError(`revision ${id} does not exist in namespace "${namespaceName}"${removedNote(namespace, id)}`);
  const fields = entryFields(row, ctx.repo.branchById(row.branchId)?.name ?? '');
  if (keys.length > 0) return { ...fields, ...changesOfKeys(ctx, row, keys, contents) };
  const limit = page ? Math.min(page.limit || MAX_PAGE_LIMIT, MAX_PAGE_LIMIT) : -1;
  if (!contents) {
    // SQLite reads a negative LIMIT as none.
    const rows = ctx.repo.changeSizesPage(row.namespaceId, row.id, page?.after ?? '', page ? limit + 1 : -1);
    const changes = (page ? rows.slice(0, limit) : rows).map(([key, type, before, after]) =>
      sizedChange(key, type, before, after),
    );
    const entry = { ...fields, changes, contents_omitted: true };
    return page && rows.length > limit ? { ...entry, next_cursor: changes[changes.length - 1].key } : entry;
  }
  if (!page) return { ...fields, ...wholeChangeList(ctx, row) };
  const rows = ctx.repo.changesPage(row.namespaceId, row.id, page.after, limit + 1);
  const taken = rows.slice(
    0,
    itemsWithin(rows.slice(0, limit), (row) => row[4], ctx.limits.response_bytes),
  );
  const changes = taken.map(([key, type, before, after]) =>
    apiChange(key, type, ctx.repo.contentOrUndefined(before), ctx.repo.contentOrUndefined(after)),
  );
  const entry = { ...fields, changes };
  return rows.length > changes.length ? { ...entry, next_cursor: changes[changes.length - 1].key } : entry;
}

/** The fields of a log entry besides its changes. */
export function entryFields(row: RevisionRow, branch: string): Omit<LogEntry, 'changes'> {
  return {
    id: row.id,
    parent_id: row.parentId,
    branch,
    message: row.message,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/**
 * Every change of a revision with its contents, or with keys and types only when the contents pass
 * `response_bytes` (measured before any is read; see change-lists.ts).
 */
export function wholeChangeList(
  ctx: EngineContext,
  row: RevisionRow,
  storedBytes = ctx.repo.changesBytes(row.namespaceId, row.id),
): ChangeList {
  if (storedBytes > ctx.limits.response_bytes) return keysOnly(ctx.repo.changeKeysOf(row.namespaceId, row.id));
  return { changes: textRowsToChanges(ctx.repo.changesOf(row.namespaceId, row.id)) };
}

/** The changes of the named documents, with contents while they total at most `response_bytes`. */
function changesOfKeys(
  ctx: EngineContext,
  row: RevisionRow,
  keys: readonly string[],
  contents: boolean,
): Pick<LogEntry, 'changes' | 'contents_omitted'> {
  const found: KeyChangeRow[] = [];
  for (const key of [...new Set(keys)].sort(compareBytewise)) {
    const keyId = ctx.repo.keyId(key);
    const change = keyId === undefined ? undefined : ctx.repo.changeOfKey(row.namespaceId, row.id, keyId);
    if (change) found.push(change);
  }
  const bytes = found.reduce((sum, [, , , , before, after]) => sum + (before ?? 0) + (after ?? 0), 0);
  if (!contents || bytes > ctx.limits.response_bytes)
    return {
      changes: found.map(([key, type, , , before, after]) => sizedChange(key, type, before, after)),
      contents_omitted: true,
    };
  return {
    changes: found.map(([key, type, before, after]) =>
      apiChange(key, type, ctx.repo.contentOrUndefined(before), ctx.repo.contentOrUndefined(after)),
    ),
  };
}

/** A change with its key, type and the UTF-8 size of each side it has. */
function sizedChange(key: string, type: 0 | 1 | 2, before: number | null, after: number | null): Change {
  return {
    key,
    type: CHANGE_TYPES[type],
    ...(before === null ? {} : { before_bytes: before }),
    ...(after === null ? {} : { after_bytes: after }),
  };
}
