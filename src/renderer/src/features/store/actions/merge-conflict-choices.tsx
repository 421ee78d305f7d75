import { useState } from 'react';
import type { MergeSide } from '../../../../../shared/store-api.js';
import { Button } from '../../../components/button.js';
import { VisibleName } from '../../../components/diff/visible-text.js';
import { Segmented, type SegmentOption } from '../../../components/segmented.js';
import { plural } from '../../../lib/format.js';

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
 * Lists each conflicting document with a choice of side, as a radio group named by the document's
 * key, plus shortcuts that choose one side for all of them.
 */
export function MergeConflictChoices({
  conflicts,
  choices,
  into,
  from,
}: {
  readonly conflicts: readonly string[];
  readonly choices: ConflictChoices;
  /** The scope's branch: "ours". */
  readonly into: string;
  /** The branch merged: "theirs". */
  readonly from: string;
}) {
  const sides = new Map(choices.chosen);
  return (
    <section className="preview" data-testid="merge-conflict-choices">
      <div className="preview-header">
        <span className="section-title">Resolve the conflicts</span>
        <span className="row-actions">
          <span className="muted">
            {choices.chosen.length} of {plural(conflicts.length, 'conflict')} chosen
          </span>
          <Button size="sm" onClick={() => choices.chooseAll('ours')}>
            All ours
          </Button>
          <Button size="sm" onClick={() => choices.chooseAll('theirs')}>
            All theirs
          </Button>
        </span>
      </div>
      <div className="data-table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th>Document</th>
              <th>
                Content merged (ours is {into}&apos;s, theirs {from}&apos;s, its delete included)
              </th>
            </tr>
          </thead>
          <tbody>
            {conflicts.map((key) => (
              <tr key={key}>
                <td className="mono">
                  <VisibleName text={key} />
                </td>
                <td>
                  <Segmented<Choice>
                    label={key}
                    options={SIDE_OPTIONS}
                    value={sides.get(key) ?? 'undecided'}
                    onChange={(side) => {
                      if (side !== 'undecided') choices.choose(key, side);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
