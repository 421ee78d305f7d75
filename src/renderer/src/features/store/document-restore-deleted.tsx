import type { StoreScope } from '../../api/query-keys.js';
import { useLog } from '../../api/store-queries.js';
import { href, Link } from '../../app/router.js';
import { scopeQuery } from './use-scope.js';

/**
 * For a key the branch head lacks: when the branch's latest change of it was a delete, a link to the
 * document as it was just before (the deleting revision's parent), where Restore this document brings
 * it back. A deleted document is otherwise found only by knowing its history.
 */
export function DeletedDocumentLastVersion({
  scope,
  documentKey,
}: {
  readonly scope: StoreScope;
  readonly documentKey: string;
}) {
  const log = useLog(scope, documentKey);
  const latest = log.data?.pages[0]?.entries[0];
  const change = latest?.changes.find((each) => each.key === documentKey);
  if (!latest || change?.type !== 'delete' || latest.parent_id === 0) return null;
  const before = latest.parent_id;
  return (
    <p>
      <Link
        data-testid="deleted-document-last-version"
        to={href('store/documents', { ...scopeQuery(scope), rev: String(before), key: documentKey })}
      >
        Open it as it was at #{before}
      </Link>
      , before #{latest.id} deleted it, to restore it.
    </p>
  );
}
