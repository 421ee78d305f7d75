import type { Change } from '../../../../shared/store-api.js';
import { EmptyState } from '../../components/feedback.js';
import { LazyChangeDiff } from './changes-view.js';
import { useCompareDiff, type CompareSide } from './compare-diff.js';

/**
 * The diff pane of one document of a comparison whose list came without contents (they passed the
 * store's `response_bytes`): its two contents are read when it is shown, that document alone.
 */
export function CompareContents({
  namespace,
  from,
  to,
  change,
}: {
  readonly namespace: string;
  readonly from: CompareSide;
  readonly to: CompareSide;
  readonly change: Change;
}) {
  const one = useCompareDiff(namespace, from, to, change.key);
  return (
    <LazyChangeDiff
      change={change}
      read={one}
      loaded={one.data?.changes[0]}
      tooLarge={
        <EmptyState title="Contents not loaded">
          This document is larger than the store sends in one answer (store.limits.response_bytes): read it from the
          Documents screen.
        </EmptyState>
      }
    />
  );
}
