import { notFoundError } from '../engine/errors.js';
import type { ScopeLike, StoreEngine } from '../engine/store-engine.js';

/**
 * The revision a state read `as_of` a time answers: the branch's last revision written at or before it,
 * as its log lists them (`log?until=` one millisecond later, newest first). 404 when the branch has none
 * that old: before its first revision there is no state of it to read.
 */
export function revisionAsOf(engine: StoreEngine, scope: ScopeLike, asOf: number): number {
  const listed = { limit: 1 };
  const [atOrBefore] = engine.log(scope, listed, { contents: false, until: asOf + 1 }).entries;
  if (atOrBefore !== undefined) return atOrBefore.id;
  const [oldest] = engine.log(scope, listed, { contents: false, sinceRevision: 0 }).entries;
  const branch = `branch "${scope?.branch || 'main'}" of namespace "${scope?.namespace || 'default'}"`;
  const when = new Date(asOf).toISOString();
  throw notFoundError(
    oldest === undefined
      ? `${branch} has no revisions, so it has no state as_of ${when}`
      : `${branch} has no revision as_of ${when}: its oldest revision is ${oldest.id}, written at ${oldest.created_at}; ` +
          'send a later as_of',
  );
}
