import type { Checkpoint } from '../../../../shared/store-api.js';
import { Badge } from '../../components/badge.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { TagIcon } from '../../components/icons.js';
import { nameText } from '../../lib/invisible-chars.js';

/** The names of the checkpoints at each revision, as `git log --decorate` shows tags beside commits. */
export function checkpointsByRevision(listed: readonly Checkpoint[] | undefined): ReadonlyMap<number, string[]> {
  const marks = new Map<number, string[]>();
  for (const checkpoint of listed ?? []) {
    const names = marks.get(checkpoint.revision_id);
    if (names) names.push(checkpoint.name);
    else marks.set(checkpoint.revision_id, [checkpoint.name]);
  }
  for (const names of marks.values()) names.sort();
  return marks;
}

/**
 * A revision's checkpoints in a log row: the first by name, then "+N" for the rest (all of them in its
 * tooltip), so a row keeps its one line. Read as "checkpoint release-1" by screen readers.
 */
export function CheckpointMark({ names }: { readonly names: readonly string[] }) {
  const [first] = names;
  if (first === undefined) return null;
  const more = names.length - 1;
  return (
    <Badge tone="success" title={`Checkpoint${names.length > 1 ? 's' : ''} ${names.map(nameText).join(', ')}`}>
      <TagIcon size={11} />
      <span className="visually-hidden">checkpoint </span>
      <span className="checkpoint-mark-name">
        <VisibleName text={first} />
      </span>
      {more > 0 && <span className="checkpoint-mark-more">+{more}</span>}
    </Badge>
  );
}
