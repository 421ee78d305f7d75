import type { Change } from '../../../../../shared/store-api.js';
import { DiffView } from '../../../components/diff/diff-view.js';
import { Loading } from '../../../components/feedback.js';
import { useDiffMode } from '../../../lib/diff-mode.js';
import { nameText } from '../../../lib/invisible-chars.js';

/**
 * Both sides of one conflicting document, keyed by document: the merge's dry run that takes theirs
 * for every conflict writes each one over ours, so its change's `before` is ours and `after` theirs.
 * A document one side deleted is that change's create (ours deleted) or delete (theirs deleted).
 */
export type ConflictSides = ReadonlyMap<string, Change>;

/** Picks the conflicting documents' changes out of the take-theirs dry run's. */
export function conflictSides(
  theirsChanges: readonly Change[] | undefined,
  conflicts: readonly string[],
): ConflictSides {
  const inConflict = new Set(conflicts);
  return new Map(
    (theirsChanges ?? []).filter((change) => inConflict.has(change.key)).map((change) => [change.key, change]),
  );
}

/** What each side did to the document, in the words of the conflict table (`main deleted it, feature changed it`). */
export function conflictSummary(change: Change | undefined, into: string, from: string): string {
  switch (change?.type) {
    case undefined:
      return '';
    case 'create':
      return `${into} deleted it, ${from} changed it`;
    case 'delete':
      return `${from} deleted it, ${into} changed it`;
    case 'update':
      return 'both changed it, differently';
  }
}

/**
 * Ours against theirs for one conflicting document, as a diff: the lines removed are ours (the
 * scope's branch), the lines added theirs (the merged branch), so the choice is seen before it is made.
 */
export function ConflictSidesView({
  docKey,
  change,
  into,
  from,
  error,
}: {
  readonly docKey: string;
  readonly change: Change | undefined;
  readonly into: string;
  readonly from: string;
  /** Set when the contents could not be read: the choice can still be made, by name. */
  readonly error: boolean;
}) {
  const mode = useDiffMode();
  if (!change)
    return error ? (
      <p className="muted">The two contents could not be read; the choice can still be made.</p>
    ) : (
      <Loading label="Reading both sides…" />
    );
  return (
    <div className="conflict-sides" data-testid="conflict-sides">
      <p className="muted">
        <span className="diff-stats-del">− ours</span>: {into}&apos;s content
        {change.before === undefined && ' (deleted)'}; <span className="diff-stats-add">+ theirs</span>: {from}&apos;s
        content{change.after === undefined && ' (deleted)'}.
      </p>
      <DiffView
        before={change.before}
        after={change.after}
        mode={mode}
        label={`Ours (${into}) against theirs (${from}) of ${nameText(docKey)}`}
      />
    </div>
  );
}
