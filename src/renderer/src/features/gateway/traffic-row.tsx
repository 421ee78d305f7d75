import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { clockTime, formatCompact, formatCost, formatLatency } from '../../lib/format.js';
import { failed } from './traffic-filter.js';

/**
 * Column headers, aligned with {@link TrafficRow} by the shared grid template; each cell's `col-*`
 * class lets the stylesheet drop the less important columns when the list is narrow. Visual only: the list
 * is a listbox, whose options carry their own names ({@link trafficRowLabel}), so the headers are
 * hidden from assistive technology rather than posing as a row of a grid.
 */
export function TrafficHeader() {
  return (
    <div className="traffic-grid traffic-head" aria-hidden="true">
      <span className="col-time">Time</span>
      <span className="col-key">Key</span>
      <span className="col-endpoint">Endpoint</span>
      <span className="col-model">Model</span>
      <span className="col-deployment">Deployment</span>
      <span className="col-status">Status</span>
      <span className="col-latency align-right">Latency</span>
      <span className="col-tokens align-right">Tokens</span>
      <span className="col-cost align-right">Cost</span>
    </div>
  );
}

function statusClass(event: TrafficEvent): string {
  if (event.status >= 500) return 'status-code status-5xx';
  if (event.status >= 400) return 'status-code status-4xx';
  // A 200 whose stream then failed is a failure, whatever its status says.
  return failed(event) ? 'status-code status-5xx' : 'status-code status-2xx';
}

/** A stream that failed after its 200: its error, as the client saw it in the stream. */
const failedAfterStart = (event: TrafficEvent): string | undefined =>
  event.status < 400 && event.error_type !== null ? event.error_type : undefined;

/** What a screen reader says for a request in the list: the columns, each named. */
export function trafficRowLabel(event: TrafficEvent): string {
  const tokens = event.prompt_tokens + event.completion_tokens;
  return [
    `${event.status} ${event.method} ${event.path}`,
    ...(failedAfterStart(event) ? [`failed after it began: ${failedAfterStart(event)}`] : []),
    `model ${event.model ?? event.requested_model ?? 'none'}`,
    `key ${event.key_name ?? event.key_id ?? 'none'}`,
    ...(event.deployment ? [`deployment ${event.deployment}`] : []),
    ...(event.stream ? ['streamed'] : []),
    ...(event.cached ? ['from the cache'] : []),
    formatLatency(event.latency_ms),
    ...(tokens ? [`${formatCompact(tokens)} tokens`] : []),
    ...(event.cost_usd ? [formatCost(event.cost_usd)] : []),
    `at ${clockTime(event.started_at)}`,
  ].join(', ');
}

/** One request in the live table. */
export function TrafficRow({ event }: { readonly event: TrafficEvent }) {
  const tokens = event.prompt_tokens + event.completion_tokens;
  return (
    <div className="traffic-grid traffic-row" data-testid="traffic-row" data-request-id={event.request_id}>
      <span className="col-time mono muted">{clockTime(event.started_at)}</span>
      <span className="col-key truncate" title={event.key_name ?? event.key_id ?? undefined}>
        {event.key_name ?? <span className="muted">{event.key_id ?? '—'}</span>}
      </span>
      <span className="col-endpoint mono truncate" title={event.path}>
        {event.path}
      </span>
      <span
        className="col-model mono truncate"
        title={
          event.requested_model && event.requested_model !== event.model
            ? `${event.model ?? '—'} (requested ${event.requested_model})`
            : (event.model ?? undefined)
        }
      >
        {event.model ?? event.requested_model ?? '—'}
      </span>
      <span className="col-deployment mono truncate muted" title={event.deployment ?? undefined}>
        {event.deployment ?? '—'}
      </span>
      <span className="col-status truncate">
        <span
          className={statusClass(event)}
          title={failedAfterStart(event) && `Failed after it began: ${failedAfterStart(event)}`}
        >
          {event.status}
        </span>
        {event.stream && <span className="muted traffic-flag">stream</span>}
        {failedAfterStart(event) && <span className="traffic-flag traffic-flag-failed">failed</span>}
        {event.cached && <span className="muted traffic-flag">cached</span>}
      </span>
      <span className="col-latency mono align-right">{formatLatency(event.latency_ms)}</span>
      <span
        className="col-tokens mono align-right"
        title={`${event.prompt_tokens} prompt + ${event.completion_tokens} completion`}
      >
        {tokens ? formatCompact(tokens) : '—'}
      </span>
      <span className="col-cost mono align-right">{event.cost_usd ? formatCost(event.cost_usd) : '—'}</span>
    </div>
  );
}
