import { ApiError } from '../../../api/http.js';
import { AlertIcon } from '../../../components/icons.js';

/** True when the store refused a write because the branch head is no longer the previewed one (409). */
export function isBranchMoved(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/**
 * Says that the branch moved after the preview was made, so nothing was written, and that the
 * preview now shows the change against the new head (once it has been computed again).
 */
export function BranchMovedNotice({
  branch,
  head,
  refreshing,
}: {
  readonly branch: string;
  readonly head: number | undefined;
  readonly refreshing: boolean;
}) {
  return (
    <div className="notice notice-warning" role="alert" data-testid="branch-moved">
      <AlertIcon />
      <span>
        {refreshing || head === undefined
          ? `${branch} moved after this preview was made, so nothing was written. Previewing against the new head…`
          : `${branch} moved to #${head} after the first preview was made (a write from elsewhere), so nothing was written. The preview below is against the new head: check it, then confirm again.`}
      </span>
    </div>
  );
}

/**
 * True when a write sent with `expected_revision` was refused because the branch moved: a 409 after
 * which the head, read again, is another revision. Revert and merge conflicts are 409s too, with the
 * head where it was; those are the store's refusal, shown as it words it.
 */
export function movedPastExpected(
  error: unknown,
  sent: number | undefined,
  head: number | undefined,
  refreshing: boolean,
): boolean {
  return isBranchMoved(error) && !refreshing && head !== undefined && head !== sent;
}
