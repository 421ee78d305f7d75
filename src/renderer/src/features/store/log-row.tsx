import type { LogEntry } from '../../../../shared/store-api.js';
import { Badge } from '../../components/badge.js';
import { fullTime, timeAgo } from '../../lib/format.js';
import { CheckpointMark } from './checkpoint-marks.js';

/** Up to two changed keys, then "+N more". */
function changedKeys(entry: LogEntry): string {
  const keys = entry.changes.map((change) => change.key);
  if (keys.length === 0) return 'no changes';
  const shown = keys.slice(0, 2).join(', ');
  return keys.length > 2 ? `${shown} +${keys.length - 2} more` : shown;
}

/** One revision in the history list: message, checkpoints, id, time and changed keys. */
export function LogRow({
  entry,
  head,
  checkpoints = [],
}: {
  readonly entry: LogEntry;
  readonly head: boolean;
  readonly checkpoints?: readonly string[];
}) {
  return (
    <div className="log-row" data-testid="log-row" data-revision={entry.id}>
      <div className="log-row-top">
        <span className="log-row-message">{entry.message || '(no message)'}</span>
        <CheckpointMark names={checkpoints} />
        {head && <Badge tone="accent">head</Badge>}
      </div>
      <div className="log-row-meta">
        <span className="mono log-row-id">#{entry.id}</span>
        <time dateTime={entry.created_at} title={fullTime(entry.created_at)}>
          {timeAgo(entry.created_at)}
        </time>
        <span className="log-row-keys" title={entry.changes.map((change) => change.key).join('\n')}>
          {changedKeys(entry)}
        </span>
      </div>
    </div>
  );
}
