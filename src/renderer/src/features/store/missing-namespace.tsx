import type { NamespaceSummary } from '../../../../shared/store-api.js';
import type { StoreScope } from '../../api/query-keys.js';
import { href, Link } from '../../app/router.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/feedback.js';
import { HistoryIcon } from '../../components/icons.js';
import { plural } from '../../lib/format.js';

/** Namespaces offered by name; the rest are one link away on the Maintenance screen. */
const OFFERED = 8;

/** The newest first: after a first write from a terminal, its namespace is the one looked for. */
function offered(namespaces: readonly NamespaceSummary[]): NamespaceSummary[] {
  return [...namespaces].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, OFFERED);
}

/**
 * A namespace the store does not have while it has others (the `default` the screens start on before
 * anything was written, a remembered or mistyped one), named as such with the namespaces there are,
 * rather than shown as an empty branch waiting for its first write.
 */
export function MissingNamespace({
  scope,
  namespaces,
  path,
  example,
}: {
  readonly scope: StoreScope;
  readonly namespaces: readonly NamespaceSummary[];
  /** The screen to open on the namespace picked instead (`store/history`). */
  readonly path: string;
  /** The command that writes to it after all: a first write creates a namespace. */
  readonly example: string;
}) {
  return (
    <EmptyState
      icon={<HistoryIcon size={28} />}
      title={`No namespace “${scope.namespace}” in the store`}
      action={
        <>
          <CopyButton text={example} label="Copy command" />
          <Link to={href('store/maintenance')}>All namespaces</Link>
        </>
      }
    >
      <p>
        The store has {plural(namespaces.length, 'namespace')}
        {namespaces.length > OFFERED ? `; the ${OFFERED} newest:` : ':'}
      </p>
      <ul className="missing-scope-list" aria-label="Namespaces of the store">
        {offered(namespaces).map((namespace) => (
          <li key={namespace.name}>
            <Link to={href(path, { ns: namespace.name })} className="mono">
              {namespace.name}
            </Link>
          </li>
        ))}
      </ul>
      <p>The first write to “{scope.namespace}” creates it:</p>
      <pre className="code-block">{example}</pre>
    </EmptyState>
  );
}
