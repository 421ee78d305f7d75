import type { StoreScope } from '../../api/query-keys.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/feedback.js';
import { HistoryIcon } from '../../components/icons.js';
import { useSession } from '../../connection/connection-context.js';

/** A ready-to-paste first apply for an empty branch. */
export function applyExample(storeUrl: string, scope: StoreScope): string {
  const body = JSON.stringify({
    scope,
    documents: [{ key: 'config/app.json', content: '{"replicas": 2}' }],
    message: 'First revision',
  });
  return `curl -X POST ${storeUrl}/v1/apply \\\n  -H "authorization: Bearer $STORE_TOKEN" \\\n  -H "content-type: application/json" \\\n  -d '${body}'`;
}

/** What an empty branch shows: what history is, and how to write the first revision. */
export function EmptyBranch({ scope }: { readonly scope: StoreScope }) {
  const { connection } = useSession();
  const example = applyExample(connection.storeUrl, scope);
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
