import type { BranchSummary } from '../../../../shared/store-api.js';
import type { StoreScope } from '../../api/query-keys.js';
import { href, Link } from '../../app/router.js';
import { EmptyState } from '../../components/feedback.js';
import { BranchIcon } from '../../components/icons.js';
import { plural } from '../../lib/format.js';

/** Branches offered by name; the rest are one link away on the Branches screen. */
const OFFERED = 8;

/** `main` first (where most people mean to go), then the others in the store's order. */
function offered(branches: readonly BranchSummary[]): BranchSummary[] {
  const main = branches.filter((branch) => branch.name === 'main');
  return [...main, ...branches.filter((branch) => branch.name !== 'main')].slice(0, OFFERED);
}

/**
 * A branch the address names that the namespace does not have (a typo, or a deleted branch), shown as
 * such with the branches it does have, rather than as an empty branch waiting for its first write.
 */
export function MissingBranch({
  scope,
  branches,
  path,
}: {
  readonly scope: StoreScope;
  readonly branches: readonly BranchSummary[];
  /** The screen to open on the branch picked instead (`store/history`). */
  readonly path: string;
}) {
  return (
    <EmptyState
      icon={<BranchIcon size={28} />}
      title={`No branch “${scope.branch}” in ${scope.namespace}`}
      action={<Link to={href('store/branches', { ns: scope.namespace, branch: scope.branch })}>All branches</Link>}
    >
      <p>
        It may have been deleted, or its name mistyped. {scope.namespace} has{' '}
        {plural(branches.length, 'branch', 'branches')}
        {branches.length > OFFERED ? `; the first ${OFFERED}:` : ':'}
      </p>
      <ul className="missing-scope-list" aria-label={`Branches of ${scope.namespace}`}>
        {offered(branches).map((branch) => (
          <li key={branch.name}>
            <Link to={href(path, { ns: scope.namespace, branch: branch.name })} className="mono">
              {branch.name}
            </Link>
          </li>
        ))}
      </ul>
      <p>Writing to “{scope.branch}” would start it as a new, empty branch.</p>
    </EmptyState>
  );
}
