import { GC_KEEP_MAX } from '../../../../shared/store-api.js';
import { formatInt } from '../../lib/format.js';

/** The label of the `keep` field, which its messages name. */
export const KEEP_LABEL = 'Revisions to keep per branch';

/**
 * The `keep` typed, as a count, or what is wrong with it. Spaces around it are ignored. 0 (or less) is
 * refused rather than sent: the store would read 0 as its default of 10, not as "keep nothing", and
 * refuses negatives.
 */
export function parseKeep(text: string): { readonly keep: number } | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: `${KEEP_LABEL} is empty: enter how many to keep, like 10.` };
  if (!/^[-+]?\d+$/.test(trimmed)) return { problem: `${KEEP_LABEL} must be a whole number, like 10.` };
  const value = Number(trimmed);
  if (value < 1) return { problem: `${KEEP_LABEL} must be at least 1.` };
  if (value > GC_KEEP_MAX)
    return { problem: `${KEEP_LABEL} is too large: the store accepts at most ${formatInt(GC_KEEP_MAX)}.` };
  return { keep: value };
}
