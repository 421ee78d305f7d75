import type { LogEntry } from '../../../../shared/store-api.js';

/**
 * The entries of a branch's log (newest first) whose parent revision is gone, mapped to that parent's
 * id: gc keeps the newest revisions and those a checkpoint or branch base holds, and a kept revision
 * keeps its historical `parent_id` (as a shallow Git history does), so the log jumps from #500 to #301.
 * An entry is followed in the log by its parent unless gc removed it; the last entry read is judged
 * only once `complete` (no older page to read). Only for a whole branch's log: one document's log
 * skips the revisions that did not change it.
 */
export function prunedParents(entries: readonly LogEntry[], complete: boolean): ReadonlyMap<number, number> {
  const pruned = new Map<number, number>();
  entries.forEach((entry, index) => {
    if (entry.parent_id === 0) return;
    const older = entries[index + 1];
    if (older ? older.id !== entry.parent_id : complete) pruned.set(entry.id, entry.parent_id);
  });
  return pruned;
}
