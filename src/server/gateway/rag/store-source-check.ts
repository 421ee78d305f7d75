import type { StoreEngine } from '../../store/engine/store-engine.js';

/** Branches read at a time when looking for the followed one (a namespace has few). */
const BRANCH_PAGE = 1000;
/** Branch names a warning lists, so a misspelt branch shows what it should have been. */
const NAMED_BRANCHES = 5;

/**
 * What keeps a collection's store source from giving it documents, or null when the branch exists.
 * The store makes a namespace or branch on its first write, so following one before that is allowed
 * (the collection fills when it is written); the warning says so, and says the same once the branch is
 * deleted, rather than leaving an empty collection with nothing to say why.
 */
export function storeSourceWarning(
  engine: Pick<StoreEngine, 'branches'>,
  namespace: string,
  branch: string,
): string | null {
  const names: string[] = [];
  let others = 0;
  let after = '';
  for (;;) {
    const page = engine.branches({ namespace, branch }, { limit: BRANCH_PAGE, after });
    if (page.branches.some((summary) => summary.current)) return null;
    for (const summary of page.branches) {
      if (names.length < NAMED_BRANCHES) names.push(summary.name);
      else others += 1;
    }
    if (page.next_cursor === undefined) break;
    after = page.next_cursor;
  }
  if (names.length === 0)
    return (
      `store namespace ${namespace} does not exist (nothing has been written to it, or its branches were deleted): ` +
      'the collection stays empty until documents are written there'
    );
  return (
    `branch ${branch} does not exist in store namespace ${namespace} (it was deleted, or nothing has been written ` +
    `to it yet; the namespace has ${names.join(', ')}${others > 0 ? ` and ${others} more` : ''}): the collection stays empty until documents are written there`
  );
}
