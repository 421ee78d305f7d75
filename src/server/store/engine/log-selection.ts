import { invalidError } from './errors.js';
import type { RevisionRow, StoreRepository } from './store-repository.js';

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
