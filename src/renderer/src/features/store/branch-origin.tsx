import type { BranchSummary, LogEntry } from '../../../../shared/store-api.js';
import { useRevision } from '../../api/store-queries.js';
import { href, Link } from '../../app/router.js';

/** Where a branch made with `POST /v1/branches` started: the revision it copied, and that revision's branch. */
export interface BranchOrigin {
  readonly revision: number;
  /** The branch of `revision` as it is named now (a rename carries over); undefined while it is read. */
  readonly branch: string | undefined;
}

/**
 * The revision a branch was made from (its `base_revision`), or undefined for a branch that was not
 * made from another: one a write or a restore started, or one made from the empty state (base 0).
 */
export function branchBase(branches: readonly BranchSummary[] | undefined, branch: string): number | undefined {
  const base = branches?.find((listed) => listed.name === branch)?.base_revision;
  return base !== undefined && base > 0 ? base : undefined;
}

/**
 * The base revision when `entry` is its branch's creation (`branch from main@12`): the one revision
 * of the branch without a parent (gc keeps a cut revision's historical parent), on a branch that
 * records a base. Its changes are then a copy of the base's documents, every one a `create`, not new
 * content; undefined for any other revision, or while the branch list is read.
 */
export function creationBase(
  entry: Pick<LogEntry, 'parent_id' | 'branch'>,
  branches: readonly BranchSummary[] | undefined,
): number | undefined {
  return entry.parent_id === 0 ? branchBase(branches, entry.branch) : undefined;
}

/**
 * The origin of a branch from its base revision. The base's branch comes from the revision itself
 * rather than from the creation's message, which keeps the name the branch had then.
 */
export function useBranchOrigin(namespace: string, base: number | undefined): BranchOrigin | undefined {
  const revision = useRevision(namespace, base);
  return base === undefined ? undefined : { revision: base, branch: revision.data?.branch };
}

/** `main@12` (`#12` until its branch is read). */
export const originName = (origin: BranchOrigin): string =>
  origin.branch === undefined ? `#${origin.revision}` : `${origin.branch}@${origin.revision}`;

/** The address of the base revision in its own branch's history; `document` keeps a document's history. */
export const originHistoryHref = (namespace: string, origin: BranchOrigin, document?: string): string =>
  href('store/history', { ns: namespace, branch: origin.branch, rev: origin.revision, document });

/** `main@12`, linking to that revision in main's history. */
export function OriginLink({
  namespace,
  origin,
  document,
}: {
  readonly namespace: string;
  readonly origin: BranchOrigin;
  readonly document?: string;
}) {
  const name = originName(origin);
  // Without its branch the history would open the scope's own, where the base is not listed.
  if (origin.branch === undefined) return <span className="mono">{name}</span>;
  return (
    <Link
      className="mono"
      to={originHistoryHref(namespace, origin, document)}
      title={`Revision #${origin.revision} in the history of ${origin.branch}`}
    >
      {name}
    </Link>
  );
}
