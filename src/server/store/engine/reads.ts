import {
  DEFAULT_LIST_LIMIT,
  DEFAULT_LOG_LIMIT,
  MAX_PAGE_LIMIT,
  type ApplyMode,
  type BranchSummary,
  type Checkpoint,
  type DiffResponse,
  type DocumentInput,
  type LogEntry,
  type LogResponse,
  type NamespaceSummary,
} from '../../../shared/store-api.js';
import { changeList, keysOnly } from './change-lists.js';
import { headState, planDocuments } from './changes.js';
import { changesBetween, diffFromTarget, type DiffFrom } from './diff-between.js';
import { changesOfKeysBetween, refsOfKeys } from './diff-of-keys.js';
import { invalidError } from './errors.js';
import { selectRevisions, selectRevisionsAfter, timeWindow } from './log-selection.js';
import { logPageBytes } from './page-bound.js';
import { sourceAt } from './reconstruct.js';
import {
  branchHeadTarget,
  checkDocuments,
  existingBranch,
  headTarget,
  lookupScope,
  selectInBranch,
  type EngineContext,
  type Scope,
} from './selectors.js';
import type { Selector } from './state-reads.js';
import { entryFields, wholeChangeList } from './revision-reads.js';

// Read operations. Each runs inside one read transaction (see StoreEngine), so it sees one snapshot.

/**
 * Options of a diff: the selected revision (a checkpoint, then another branch's head, then a revision
 * of the scope's branch, then head), optionally the side to compare it from (head when none), and,
 * optionally, documents to try on top of it.
 */
export interface DiffOptions extends Selector {
  /** Another branch of the namespace, compared at its head: what a restore from it would change. */
  readonly branch: string;
  readonly from?: DiffFrom;
  readonly documents: readonly DocumentInput[];
  readonly mode: ApplyMode;
  /** Only the changes of these documents (`git diff -- <path>`); undefined for all of them. */
  readonly keys?: readonly string[];
}

/**
 * Without documents: the `from` side (head when none) compared with the selected revision. With
 * documents: what applying them to the selected revision (head when none) would change. With `keys`,
 * only the changes of those documents. Writes nothing.
 */
export function diff(ctx: EngineContext, scope: Scope, options: DiffOptions): DiffResponse {
  const rows = lookupScope(ctx.repo, scope);
  const target =
    options.branch && !options.checkpoint
      ? branchHeadTarget(ctx.repo, rows, options.branch)
      : selectInBranch(ctx.repo, rows, options);
  const from = diffFromTarget(ctx.repo, rows, options.from);
  if (options.documents.length > 0) {
    if (from)
      throw invalidError(
        'from and documents cannot be used together: documents are tried on top of the selected revision and ' +
          'compared with it; to compare two revisions, leave documents out',
      );
    checkDocuments(options.documents, ctx.limits);
    const base =
      target.branch?.id === rows.branch?.id && target.revision === rows.head
        ? headState(ctx.repo, rows.branch?.id)
        : ctx.repo.stateMap(sourceAt(ctx.repo, target.branch, target.revision));
    const planned = planDocuments(ctx.repo, base, options.documents, options.mode);
    const named = options.keys ? refsOfKeys(planned, options.keys) : planned;
    const list = changeList(ctx.repo, named, ctx.limits.response_bytes);
    return { from_revision: target.revision, to_revision: target.revision, ...list };
  }
  const start = from ?? headTarget(rows);
  const list = options.keys
    ? changesOfKeysBetween(ctx.repo, start, target, options.keys, ctx.limits.response_bytes)
    : changesBetween(ctx, start, target);
  return { from_revision: start.revision, to_revision: target.revision, ...list };
}

/** Paging of a listing: `limit` (0 for the default) and `after` (exclusive cursor). */
export interface Page<C> {
  readonly limit: number;
  readonly after: C;
}

const pageSize = (limit: number, fallback: number): number => Math.min(limit || fallback, MAX_PAGE_LIMIT);

/**
 * What a log lists: every revision, or those that changed `key`; those created from `since` (inclusive)
 * to `until` (exclusive), milliseconds since the epoch, when given; its changes with their contents or without.
 */
export interface LogOptions {
  readonly key: string;
  readonly contents: boolean;
  readonly since: number | undefined;
  readonly until: number | undefined;
  /** Oldest first, the revisions after this one (exclusive), for tailing; undefined: newest first. */
  readonly sinceRevision?: number;
}

/**
 * The branch's history, newest first, `limit` entries below revision `after` (with `sinceRevision`, oldest
 * first, `limit` entries above it, `next_cursor` the next page's `sinceRevision`); with `key`, only the
 * revisions that changed that document (each with all its changes, as `git log -- <path>`); with `since`
 * or `until`, only those created then, as `git log --since --until`. Entries carry whole
 * contents, so a page also ends (with `next_cursor`) before the entry that would take it past its
 * bound ({@link logPageBytes}, bytes of JSON as sent): a thousand large revisions would otherwise be
 * built in memory at once and could exhaust the process. The first entry always comes, whatever its size. A branch never written is 404
 * in a namespace that has branches (`mian` for `main` would otherwise read as an empty history), and
 * an empty history where nothing was written yet, as the contract has a fresh scope.
 */
export function log(
  ctx: EngineContext,
  scope: Scope,
  page: Page<number>,
  { key = '', contents = true, since, until, sinceRevision }: Partial<LogOptions> = {},
): LogResponse {
  const window = timeWindow(since, until);
  if (sinceRevision !== undefined && page.after !== 0)
    throw invalidError(
      `since_revision and after cannot be used together: after pages newest first, since_revision oldest first; ` +
        `the next page after since_revision=${sinceRevision} is since_revision=<next_cursor>`,
    );
  const rows = lookupScope(ctx.repo, scope);
  if (!rows.branch && rows.branchNames.length === 0) return { entries: [], total: 0 };
  const branch = existingBranch(rows, 'it has no history', 'Check the name: GET /v1/branches lists them all');
  // A key never written anywhere has no history.
  const keyId = key === '' ? undefined : ctx.repo.keyId(key);
  if (key !== '' && keyId === undefined) return { entries: [], total: 0 };
  const limit = pageSize(page.limit, DEFAULT_LOG_LIMIT);
  const selection = { branchId: branch.id, keyId, window };
  const { revisions, total } =
    sinceRevision === undefined
      ? selectRevisions(ctx.repo, selection, page.after || Number.MAX_SAFE_INTEGER, limit + 1)
      : selectRevisionsAfter(ctx.repo, selection, sinceRevision, limit + 1);
  const branchName = branch.name;
  const bound = logPageBytes(ctx.limits);
  const entries: LogEntry[] = [];
  let size = 0;
  for (const revision of revisions.slice(0, limit)) {
    // Stored contents are measured from their record headers before any is read, and escaping only
    // adds to them: an entry that would take the page past its bound this way is not built at all.
    const stored = contents ? ctx.repo.changesBytes(revision.namespaceId, revision.id) : 0;
    const carried = stored > ctx.limits.response_bytes ? 0 : stored;
    if (entries.length > 0 && size + carried > bound) break;
    const entry: LogEntry = {
      ...entryFields(revision, branchName),
      ...(contents
        ? wholeChangeList(ctx, revision, stored)
        : keysOnly(ctx.repo.changeKeysOf(revision.namespaceId, revision.id))),
    };
    // Bytes as sent: JSON escaping makes a quote two bytes and a control character six.
    size += Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (entries.length > 0 && size > bound) break;
    entries.push(entry);
  }
  // The count was read in the same transaction as the page, so a client showing "N revisions" never
  // sees a count from another moment.
  return revisions.length > entries.length
    ? { entries, next_cursor: entries[entries.length - 1].id, total }
    : { entries, total };
}

/** The namespace's branches sorted by name, `current` marking the scope's. */
export function branches(
  ctx: EngineContext,
  scope: Scope,
  page: Page<string>,
): { branches: BranchSummary[]; next_cursor?: string } {
  const namespace = ctx.repo.namespace(scope.namespace);
  if (!namespace) return { branches: [] };
  const limit = pageSize(page.limit, DEFAULT_LIST_LIMIT);
  const rows = ctx.repo.branchPage(namespace.id, page.after, limit + 1);
  const items = rows.slice(0, limit).map((b) => ({
    name: b.name,
    base_revision: b.baseRevision,
    head_revision: b.headRevision,
    current: b.name === scope.branch,
  }));
  return rows.length > limit ? { branches: items, next_cursor: items[items.length - 1].name } : { branches: items };
}

/** The namespace's checkpoints sorted by name (Gatehouse extension). */
export function checkpoints(
  ctx: EngineContext,
  namespaceName: string,
  page: Page<string>,
): { checkpoints: Checkpoint[]; next_cursor?: string } {
  const namespace = ctx.repo.namespace(namespaceName);
  if (!namespace) return { checkpoints: [] };
  const limit = pageSize(page.limit, DEFAULT_LIST_LIMIT);
  const rows = ctx.repo.checkpointPage(namespace.id, page.after, limit + 1);
  const items = rows.slice(0, limit).map((c) => ({
    name: c.name,
    revision_id: c.revisionId,
    branch: c.branch ?? '',
    description: c.description,
    created_at: new Date(c.createdAt).toISOString(),
  }));
  return rows.length > limit
    ? { checkpoints: items, next_cursor: items[items.length - 1].name }
    : { checkpoints: items };
}

/** Namespaces sorted by name with their sizes (Gatehouse extension); `visible` filters by the caller's grant. */
export function namespaces(
  ctx: EngineContext,
  page: Page<string>,
  visible: (name: string) => boolean,
): { namespaces: NamespaceSummary[]; next_cursor?: string } {
  const limit = pageSize(page.limit, DEFAULT_LIST_LIMIT);
  const items: NamespaceSummary[] = [];
  let after = page.after;
  let more = false;
  // Filtering happens after the query, so fetch pages until this one is full.
  for (;;) {
    const rows = ctx.repo.namespacePage(after, limit + 1);
    for (const row of rows) {
      if (!visible(row.name)) continue;
      if (items.length === limit) {
        more = true;
        break;
      }
      const { headRevision, ...counts } = ctx.repo.namespaceCounts(row.id);
      items.push({
        name: row.name,
        ...counts,
        // The newest revision a branch stands on: a deleted branch's revisions are gone with it.
        head_revision: headRevision,
        created_at: new Date(row.createdAt).toISOString(),
      });
    }
    if (more || rows.length <= limit) break;
    after = rows[rows.length - 1].name;
  }
  return more ? { namespaces: items, next_cursor: items[items.length - 1].name } : { namespaces: items };
}
