import { Fragment } from 'react';
import type { LogEntry } from '../../../../shared/store-api.js';
import { Badge } from '../../components/badge.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { fullTime, plural, timeAgo } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';
import { originName, type BranchOrigin } from './branch-origin.js';
import { CheckpointMark } from './checkpoint-marks.js';
import { splitMessage } from './revision-message.js';

/** Up to two changed keys, then "+N more"; a branch's creation copies its base's documents, counted. */
function ChangedKeys({ entry, origin }: { readonly entry: LogEntry; readonly origin?: BranchOrigin }) {
  const keys = entry.changes.map((change) => change.key);
  if (origin) return `${plural(keys.length, 'document')} as of ${originName(origin)}`;
  if (keys.length === 0) return 'no changes';
  return (
    <>
      {keys.slice(0, 2).map((key, index) => (
        <Fragment key={key}>
          {index > 0 && ', '}
          <VisibleName text={key} />
        </Fragment>
      ))}
      {keys.length > 2 && ` +${keys.length - 2} more`}
    </>
  );
}

/** The height of a log row, and of one with the note that gc removed the revisions below it. */
export const LOG_ROW_HEIGHT = 60;
export const PRUNED_LOG_ROW_HEIGHT = 84;

/**
 * One revision in the history list: message, checkpoints, id, time and changed keys; with `prunedUpTo`,
 * a note under it that gc removed the older revisions up to that one (its parent), where the log jumps.
 * With `origin`, the row is the branch's creation, listing what it copied rather than what it changed.
 */
export function LogRow({
  entry,
  head,
  checkpoints = [],
  prunedUpTo,
  origin,
}: {
  readonly entry: LogEntry;
  readonly head: boolean;
  readonly checkpoints?: readonly string[];
  readonly prunedUpTo?: number;
  readonly origin?: BranchOrigin;
}) {
  return (
    <div className="log-row" data-testid="log-row" data-revision={entry.id}>
      <div className="log-row-top">
        <span className="log-row-message">{splitMessage(entry.message).title || '(no message)'}</span>
        <CheckpointMark names={checkpoints} />
        {head && <Badge tone="accent">head</Badge>}
      </div>
      <div className="log-row-meta">
        <span className="mono log-row-id">#{entry.id}</span>
        <time dateTime={entry.created_at} title={fullTime(entry.created_at)}>
          {timeAgo(entry.created_at)}
        </time>
        <span className="log-row-keys" title={entry.changes.map((change) => nameText(change.key)).join('\n')}>
          <ChangedKeys entry={entry} origin={origin} />
        </span>
      </div>
      {prunedUpTo !== undefined && (
        <div className="log-row-pruned" data-testid="log-pruned">
          Older revisions up to #{prunedUpTo} were removed by garbage collection
        </div>
      )}
    </div>
  );
}
