import type { StoreScope } from '../../api/query-keys.js';
import { useBranches, useNamespaces } from '../../api/store-queries.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState, Loading } from '../../components/feedback.js';
import { HistoryIcon } from '../../components/icons.js';
import { useSession } from '../../connection/connection-context.js';
import { MissingBranch } from './missing-branch.js';
import { MissingNamespace } from './missing-namespace.js';

/** A ready-to-paste first apply for an empty branch. */
export function applyExample(storeUrl: string, scope: StoreScope): string {
  const body = JSON.stringify({
    scope,
    documents: [{ key: 'config/app.json', content: '{"replicas": 2}' }],
    message: 'First revision',
  });
  return `curl -X POST ${storeUrl}/v1/apply \\\n  -H "authorization: Bearer $STORE_TOKEN" \\\n  -H "content-type: application/json" \\\n  -d '${body}'`;
}

/**
 * What a branch without revisions shows: in a namespace with other branches, that this one does not
 * exist and which do; in a store with other namespaces, that this one does not exist and which do;
 * otherwise what history is, and how to write the first revision.
 */
export function EmptyBranch({ scope, path }: { readonly scope: StoreScope; readonly path: string }) {
  const { connection } = useSession();
  const branches = useBranches(scope);
  const namespaces = useNamespaces();
  const example = applyExample(connection.storeUrl, scope);
  if (branches.isPending || namespaces.isPending) return <Loading />;
  const listed = branches.data?.branches ?? [];
  if (listed.length > 0 && !listed.some((branch) => branch.name === scope.branch))
    return <MissingBranch scope={scope} branches={listed} path={path} />;
  const stored = namespaces.data?.namespaces ?? [];
  if (stored.length > 0 && !stored.some((namespace) => namespace.name === scope.namespace))
    return <MissingNamespace scope={scope} namespaces={stored} path={path} example={example} />;
  return (
    <EmptyState
      icon={<HistoryIcon size={28} />}
      title={`No revisions on ${scope.namespace} / ${scope.branch} yet`}
      action={<CopyButton text={example} label="Copy command" />}
    >
      <p>
        Every change applied to the store becomes a revision here, with a diff of each document. Apply documents with
        the store API to start:
      </p>
      <pre className="code-block">{example}</pre>
    </EmptyState>
  );
}
