import type { StoreScope } from '../../../api/query-keys.js';
import { href, navigate } from '../../../app/router.js';
import { showToast } from '../../../components/toast.js';

/** After a write: say what happened and show the new revision in the branch's history. */
export function showNewRevision(
  scope: StoreScope,
  summary: string,
  result: { readonly revision: number; readonly noop: boolean },
): void {
  showToast(result.noop ? `${summary}: nothing changed` : `${summary}: revision #${result.revision}`);
  navigate(
    href('store/history', {
      ns: scope.namespace,
      branch: scope.branch,
      rev: result.noop ? undefined : result.revision,
    }),
  );
}
