import type { Change } from '../../../../../shared/store-api.js';
import { documentContent } from '../../../lib/state-diff.js';

/** What reverting a revision on the branch's head would do: the changes, and the documents in the way. */
export interface RevertPlan {
  readonly changes: readonly Change[];
  /** Documents the revision changed whose content on the head is neither what it left nor what it found. */
  readonly conflicts: readonly string[];
}

/**
 * The store's rule for a revert, document by document (docs/store.md, "Revert"): a document back at
 * its content before the revision needs nothing; one still as the revision left it gets its content
 * before; any other content is a conflict, which makes the store refuse the whole revert.
 */
export function planRevert(revisionChanges: readonly Change[], head: Readonly<Record<string, string>>): RevertPlan {
  const changes: Change[] = [];
  const conflicts: string[] = [];
  for (const change of revisionChanges) {
    const found = change.type === 'create' ? undefined : change.before;
    const left = change.type === 'delete' ? undefined : change.after;
    const now = documentContent(head, change.key);
    if (now === found) continue;
    if (now !== left) conflicts.push(change.key);
    else if (found === undefined) changes.push({ key: change.key, type: 'delete', before: now });
    else if (now === undefined) changes.push({ key: change.key, type: 'create', after: found });
    else changes.push({ key: change.key, type: 'update', before: now, after: found });
  }
  return { changes, conflicts };
}

/**
 * The revision's changes taken back, keys and types only: all that can be said when its contents
 * were too large to load, leaving the per-document check to the store.
 */
export function invertChanges(revisionChanges: readonly Change[]): Change[] {
  return revisionChanges.map(({ key, type }) => ({
    key,
    type: type === 'create' ? 'delete' : type === 'delete' ? 'create' : 'update',
  }));
}

/** The message the store gives a revert by default, as git's first line: `Revert "<first line>"`. */
export function defaultRevertMessage(message: string): string {
  return `Revert "${message.split('\n', 1)[0] ?? ''}"`;
}
