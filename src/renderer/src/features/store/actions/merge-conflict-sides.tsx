import { useState } from 'react';
import type { Change } from '../../../../../shared/store-api.js';
import { DiffView } from '../../../components/diff/diff-view.js';
import { Loading } from '../../../components/feedback.js';
import { Segmented, type SegmentOption } from '../../../components/segmented.js';
import { useDiffMode } from '../../../lib/diff-mode.js';
import { nameText } from '../../../lib/invisible-chars.js';
import { baseContentOf, type MergeBaseRead } from './use-merge-base-state.js';

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

/** Which pair of contents the conflict's diff shows. */
type SidesShown = 'sides' | 'base-ours' | 'base-theirs';

const SHOWN_OPTIONS: readonly SegmentOption<SidesShown>[] = [
  { value: 'sides', label: 'Ours ↔ theirs' },
  { value: 'base-ours', label: 'Base → ours' },
  { value: 'base-theirs', label: 'Base → theirs' },
];

/**
 * One conflicting document as a diff: ours against theirs by default (the lines removed are ours, the
 * scope's branch; the lines added theirs, the merged branch), or what either side changed since the
 * merge base, so the choice is made knowing whose edit each line is.
 */
export function ConflictSidesView({
  docKey,
  change,
  into,
  from,
  error,
  base,
}: {
  readonly docKey: string;
  readonly change: Change | undefined;
  readonly into: string;
  readonly from: string;
  /** Set when the contents could not be read: the choice can still be made, by name. */
  readonly error: boolean;
  /** The conflicting documents at the merge base, read when a row opens. */
  readonly base: MergeBaseRead;
}) {
  const mode = useDiffMode();
  const [shown, setShown] = useState<SidesShown>('sides');
  if (!change)
    return error ? (
      <p className="muted">The two contents could not be read; the choice can still be made.</p>
    ) : (
      <Loading label="Reading both sides…" />
    );
  const name = nameText(docKey);
  return (
    <div className="conflict-sides" data-testid="conflict-sides">
      {base.status === 'none' ? (
        <p className="muted">No common revision: no base to compare with.</p>
      ) : (
        <Segmented<SidesShown>
          label={`Diff shown for ${docKey}`}
          options={SHOWN_OPTIONS}
          value={shown}
          onChange={setShown}
        />
      )}
      {shown === 'sides' || base.status === 'none' ? (
        <>
          <p className="muted">
            <span className="diff-stats-del">− ours</span>: {into}&apos;s content
            {change.before === undefined && ' (deleted)'}; <span className="diff-stats-add">+ theirs</span>: {from}
            &apos;s content{change.after === undefined && ' (deleted)'}.
          </p>
          <DiffView
            before={change.before}
            after={change.after}
            mode={mode}
            label={`Ours (${into}) against theirs (${from}) of ${name}`}
          />
        </>
      ) : base.status === 'loading' ? (
        <Loading label="Reading the merge base…" />
      ) : base.status === 'error' ? (
        <p className="muted">The merge base could not be read; ours against theirs still shows both contents.</p>
      ) : (
        <BaseDiff
          name={name}
          baseName={base.name}
          before={baseContentOf(base, docKey)}
          {...(shown === 'base-ours'
            ? { side: 'ours', branch: into, after: change.before }
            : { side: 'theirs', branch: from, after: change.after })}
        />
      )}
    </div>
  );
}

/** What one side changed since the merge base, with a legend naming both. */
function BaseDiff({
  name,
  baseName,
  before,
  side,
  branch,
  after,
}: {
  readonly name: string;
  /** `main@12`. */
  readonly baseName: string;
  readonly before: string | undefined;
  readonly side: 'ours' | 'theirs';
  readonly branch: string;
  readonly after: string | undefined;
}) {
  const mode = useDiffMode();
  return (
    <>
      <p className="muted">
        <span className="diff-stats-del">− base</span>: {baseName}&apos;s content
        {before === undefined && ' (not in the base: created on both sides)'};{' '}
        <span className="diff-stats-add">+ {side}</span>: {branch}&apos;s content{after === undefined && ' (deleted)'}.
      </p>
      <DiffView
        before={before}
        after={after}
        mode={mode}
        label={`Base (${baseName}) against ${side} (${branch}) of ${name}`}
      />
    </>
  );
}
