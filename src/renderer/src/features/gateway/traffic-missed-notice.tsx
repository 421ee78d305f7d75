import type { MissedRequests } from '../../api/traffic-buffer.js';
import { href, Link } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { AlertIcon } from '../../components/icons.js';
import { clockTime, plural } from '../../lib/format.js';

/**
 * Says that the list lacks requests the gateway dropped before this view received them (it fell
 * behind the gateway's buffer: a dropped connection, a slow stream under load): how many, since when,
 * and that usage still counts them. It stays, adding up later gaps, until dismissed.
 */
export function TrafficMissedNotice({
  missed,
  onDismiss,
}: {
  readonly missed: MissedRequests;
  readonly onDismiss: () => void;
}) {
  const kept =
    missed.gatewayCapacity === undefined
      ? 'The gateway keeps only its most recent requests'
      : `The gateway keeps only its last ${plural(missed.gatewayCapacity, 'request')} (gateway.traffic_buffer)`;
  const them = missed.count === 1 ? 'it' : 'them';
  return (
    <div className="notice notice-warning traffic-missed" data-testid="traffic-missed">
      <AlertIcon />
      {/* An alert: it comes rarely, and someone following the list by ear must hear that it has holes. */}
      <p className="traffic-missed-text" role="alert">
        <strong>
          {plural(missed.count, 'request')} missed since {clockTime(missed.since)}.
        </strong>{' '}
        {kept} and no longer kept {them} when this view caught up, so this list lacks {them}. The{' '}
        <Link to={href('gateway/usage')}>Usage screen</Link> still counts {them}.
      </p>
      <Button size="sm" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
