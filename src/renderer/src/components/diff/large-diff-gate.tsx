import { useId } from 'react';
import { plural } from '../../lib/format.js';
import { Button } from '../button.js';

/**
 * Changed lines (added, deleted, and replaced without being compared) past which a diff waits for
 * Load diff, as GitHub does for large diffs: drawing one costs thousands of rows (3,000 before Show
 * all) that a change this large is rarely read by, and selecting its revision should not pay for them.
 */
export const LARGE_DIFF_LINES = 5_000;

/** Whether a diff of `changed` changed lines waits for Load diff. */
export const isLargeDiff = (changed: number): boolean => changed > LARGE_DIFF_LINES;

/**
 * What stands in for a large diff until asked for: its size, and Load diff (a button of that name,
 * described by the sentence before it).
 */
export function LargeDiffGate({ changed, onLoad }: { readonly changed: number; readonly onLoad: () => void }) {
  const id = useId();
  return (
    <div className="diff-note" data-testid="large-diff">
      <span id={id}>Large diff ({plural(changed, 'changed line')}) is not shown by default.</span>{' '}
      <Button size="sm" aria-describedby={id} onClick={onLoad}>
        Load diff
      </Button>
    </div>
  );
}
