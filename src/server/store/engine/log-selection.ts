import type { Statement } from 'better-sqlite3';
import { invalidError } from './errors.js';
import { REVISION_COLUMNS, type RevisionRow, type StoreRepository } from './store-repository.js';

/** The times a log covers, in milliseconds since the epoch: `since` inclusive, `until` exclusive. */
export interface TimeWindow {
  readonly since: number;
  readonly until: number;
}

/** The window of `since` and `until` (either may be missing); none when both are; 400 when it runs backwards. */
export function timeWindow(since: number | undefined, until: number | undefined): TimeWindow | undefined {
  if (since === undefined && until === undefined) return undefined;
  if (since !== undefined && until !== undefined && since > until) {
    throw invalidError(
      `since (${new Date(since).toISOString()}) is after until (${new Date(until).toISOString()}); ` +
        'since is the earliest time listed (inclusive) and until the end (exclusive)',
    );
  }
  return { since: since ?? Number.MIN_SAFE_INTEGER, until: until ?? Number.MAX_SAFE_INTEGER };
}

/** What a log page lists: a branch's revisions, those that changed `keyId` when given, within `window` when given. */
export interface HistorySelection {
  readonly branchId: number;
  readonly keyId: number | undefined;
  readonly window: TimeWindow | undefined;
}

/**
 * Up to `limit` revisions of the selection below revision `before`, newest first, and how many it holds
 * over all pages. With a window, its revision ids are found first from the creation-time index, so the
 * page's walk down the branch starts at the window's newest revision and stops at its oldest, instead of
 * reading the history after `until` or, on the last page, before `since`.
 */
export function selectRevisions(
  repo: StoreRepository,
  { branchId, keyId, window }: HistorySelection,
  before: number,
  limit: number,
): { readonly revisions: RevisionRow[]; readonly total: number } {
  if (window === undefined) {
    return keyId === undefined
      ? { revisions: repo.revisionPage(branchId, before, limit), total: repo.revisionCount(branchId) }
      : {
          revisions: repo.revisionPageTouching(branchId, keyId, before, limit),
          total: repo.revisionCountTouching(branchId, keyId),
        };
  }
  const span = repo.revisionSpanWithin(branchId, window.since, window.until);
  if (span.count === 0) return { revisions: [], total: 0 };
  const below = Math.min(before, span.newest + 1);
  const range = { ...window, oldest: span.oldest, below };
  return keyId === undefined
    ? { revisions: repo.revisionPageWithin(branchId, range, limit), total: span.count }
    : {
        revisions: repo.revisionPageTouchingWithin(branchId, keyId, range, limit),
        total: repo.revisionCountTouchingWithin(branchId, keyId, window.since, window.until),
      };
}

/**
 * The selection after a revision: the branch's, within the window, those changing the key when one is
 * bound. `time` is the creation-time column as the query names it.
 */
const afterWhere = (touching: boolean, time: string) => `branch_id = @branch AND id > @after
  AND ${time} >= @since AND ${time} < @until
  ${touching ? `AND EXISTS (SELECT 1 FROM store_revision_changes c WHERE c.namespace_id = r.namespace_id AND c.revision_id = r.id AND c.key_id = @key)` : ''}`;

interface ForwardStatements {
  readonly page: Statement;
  readonly pageTouching: Statement;
  readonly count: Statement;
  readonly countTouching: Statement;
}

// Prepared once per connection: the repository's statements all list newest first.
const forwardStatements = new WeakMap<StoreRepository, ForwardStatements>();

function forward(repo: StoreRepository): ForwardStatements {
  let statements = forwardStatements.get(repo);
  if (statements === undefined) {
    const p = (sql: string) => repo.sqlite.prepare(sql);
    // The page walks the id index up from `after`; the unary `+` keeps its plan off the creation-time
    // index, which would sort the whole window per page.
    const page = (touching: boolean) =>
      p(`SELECT ${REVISION_COLUMNS} FROM store_revisions r WHERE ${afterWhere(touching, '+created_at')}
        ORDER BY id LIMIT @limit`);
    const count = (touching: boolean) =>
      p(`SELECT count(*) FROM store_revisions r WHERE ${afterWhere(touching, 'created_at')}`).pluck();
    statements = { page: page(false), pageTouching: page(true), count: count(false), countTouching: count(true) };
    forwardStatements.set(repo, statements);
  }
  return statements;
}

/**
 * Up to `limit` revisions of the selection after revision `after` (exclusive), oldest first, and how
 * many it holds after `after` over all pages: a tailer's next page starts after the last one it read.
 */
export function selectRevisionsAfter(
  repo: StoreRepository,
  { branchId, keyId, window }: HistorySelection,
  after: number,
  limit: number,
): { readonly revisions: RevisionRow[]; readonly total: number } {
  const statements = forward(repo);
  const bound = {
    branch: branchId,
    after,
    since: window?.since ?? Number.MIN_SAFE_INTEGER,
    until: window?.until ?? Number.MAX_SAFE_INTEGER,
    ...(keyId === undefined ? {} : { key: keyId }),
  };
  return keyId === undefined
    ? {
        revisions: statements.page.all({ ...bound, limit }) as RevisionRow[],
        total: statements.count.get(bound) as number,
      }
    : {
        revisions: statements.pageTouching.all({ ...bound, limit }) as RevisionRow[],
        total: statements.countTouching.get(bound) as number,
      };
}
