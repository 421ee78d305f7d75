import { Fragment, useState } from 'react';
import type { MergeSide } from '../../../../../shared/store-api.js';
import { Button } from '../../../components/button.js';
import { VisibleName } from '../../../components/diff/visible-text.js';
import { AlertIcon, CheckIcon, ChevronDownIcon, ChevronRightIcon } from '../../../components/icons.js';
import { Segmented, type SegmentOption } from '../../../components/segmented.js';
import { plural } from '../../../lib/format.js';
import { conflictSummary, ConflictSidesView, type ConflictSides } from './merge-conflict-sides.js';
import { useMergeBaseState } from './use-merge-base-state.js';

/** A side chosen for each conflicting document, in the order the store lists the conflicts. */
export interface ConflictChoices {
  /** The choices made for documents in conflict now, as pairs (as the merge sends them). */
  readonly chosen: readonly (readonly [string, MergeSide])[];
  /** True once every conflict has a side. */
  readonly complete: boolean;
  readonly choose: (key: string, side: MergeSide) => void;
  readonly chooseAll: (side: MergeSide) => void;
}

/**
 * Holds the side chosen for each document of `conflicts` (undefined while they are being read). A
 * choice for a document no longer in conflict (the heads moved) is dropped, so it does not come back
 * if that document conflicts again later, over other contents.
 */
export function useConflictChoices(conflicts: readonly string[] | undefined): ConflictChoices {
  const [sides, setSides] = useState<ReadonlyMap<string, MergeSide>>(new Map());
  const inConflict = new Set(conflicts);
  if (conflicts && [...sides.keys()].some((key) => !inConflict.has(key))) {
    // Adjusted while rendering, as React advises for state derived from props: no stale frame shows.
    setSides(new Map([...sides].filter(([key]) => inConflict.has(key))));
  }
  const chosen = (conflicts ?? []).flatMap((key) => {
    const side = sides.get(key);
    return side ? [[key, side] as const] : [];
  });
  return {
    chosen,
    complete: !!conflicts && conflicts.length > 0 && chosen.length === conflicts.length,
    choose: (key, side) => setSides((before) => new Map(before).set(key, side)),
    chooseAll: (side) => setSides(new Map((conflicts ?? []).map((key) => [key, side]))),
  };
}

/** No side yet: the group shows no option checked. */
type Choice = MergeSide | 'undecided';

const SIDE_OPTIONS: readonly SegmentOption<Choice>[] = [
  { value: 'ours', label: 'Keep ours' },
  { value: 'theirs', label: 'Take theirs' },
];

/**
 * Lists each conflicting document with what each side did and a choice of side, as a radio group
 * named by the document's key, plus shortcuts that choose one side for all of them. Each row opens
 * a diff of ours against theirs, or of the merge base against either side, so the choice is made with
 * both contents and both edits in sight; a status line says how many are still to choose, then that none is.
 */
export function MergeConflictChoices({
  conflicts,
  choices,
  into,
  from,
  sides,
  sidesError,
  namespace,
  mergeBase,
}: {
  readonly conflicts: readonly string[];
  readonly choices: ConflictChoices;
  /** The scope's branch: "ours". */
  readonly into: string;
  /** The branch merged: "theirs". */
  readonly from: string;
  /** Both contents of each conflicting document, once read. */
  readonly sides: ConflictSides | undefined;
  /** The contents could not be read: the rows say so, and the choices still work. */
  readonly sidesError: boolean;
  readonly namespace: string;
  /** The merge base of the dry run that listed the conflicts (0: the branches have none). */
  readonly mergeBase: number | undefined;
}) {
  const chosen = new Map(choices.chosen);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(conflicts.length === 1 ? conflicts : []));
  const toggle = (key: string): void =>
    setOpen((before) => {
      const next = new Set(before);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  // Read once, for every conflict at once, when the first row opens.
  const base = useMergeBaseState(
    namespace,
    mergeBase,
    conflicts,
    conflicts.some((key) => open.has(key)),
  );
  return (
    <section className="preview merge-conflicts" data-testid="merge-conflict-choices">
      <div className="preview-header">
        <span className="section-title">Resolve the conflicts</span>
        <span className="row-actions">
          <Button size="sm" onClick={() => choices.chooseAll('ours')}>
            All ours
          </Button>
          <Button size="sm" onClick={() => choices.chooseAll('theirs')}>
            All theirs
          </Button>
        </span>
      </div>
      {/* Always there and updated in place: a status region that is removed announces nothing, so the
          last choice would go unsaid. */}
      <div
        className={choices.complete ? 'notice' : 'notice notice-warning'}
        role="status"
        data-testid="merge-conflict-progress"
      >
        {choices.complete ? <CheckIcon /> : <AlertIcon />}
        <span>
          {choices.complete
            ? `All conflicts resolved: the merge takes the side chosen for each document.`
            : `${choices.chosen.length} of ${plural(conflicts.length, 'conflict')} resolved: ${conflicts.length === 1 ? 'this document was' : 'these documents were'} ` +
              `changed on both ${into} and ${from}. Open one to compare the two contents, then keep ours (${into}'s) or take theirs (${from}'s).`}
        </span>
      </div>
      <div className="data-table-scroll">
        <table className="data-table" aria-label="Conflicts">
          <thead>
            <tr>
              <th>Document</th>
              <th>What each side did</th>
              <th>
                Content merged (ours is {into}&apos;s, theirs {from}&apos;s, its delete included)
              </th>
            </tr>
          </thead>
          <tbody>
            {conflicts.map((key) => {
              const shown = open.has(key);
              const detailId = `conflict-sides-${conflicts.indexOf(key)}`;
              return (
                <Fragment key={key}>
                  <tr>
                    <td className="mono">
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={shown ? <ChevronDownIcon /> : <ChevronRightIcon />}
                        aria-expanded={shown}
                        aria-controls={shown ? detailId : undefined}
                        aria-label={`${shown ? 'Hide' : 'Compare'} ours and theirs of ${key}`}
                        onClick={() => toggle(key)}
                      />
                      <VisibleName text={key} />
                    </td>
                    <td className="muted">{conflictSummary(sides?.get(key), into, from)}</td>
                    <td>
                      <Segmented<Choice>
                        label={key}
                        options={SIDE_OPTIONS}
                        value={chosen.get(key) ?? 'undecided'}
                        onChange={(side) => {
                          if (side !== 'undecided') choices.choose(key, side);
                        }}
                      />
                    </td>
                  </tr>
                  {shown && (
                    <tr id={detailId}>
                      <td colSpan={3}>
                        <ConflictSidesView
                          docKey={key}
                          change={sides?.get(key)}
                          into={into}
                          from={from}
                          error={sidesError}
                          base={base}
                        />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
