import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { clockTime, formatCompact, formatCost, formatLatency } from '../../lib/format.js';

/**
 * Column headers, aligned with {@link TrafficRow} by the shared grid template. Visual only: the list
 * is a listbox, whose options carry their own names ({@link trafficRowLabel}), so the headers are
 * hidden from assistive technology rather than posing as a row of a grid.
 */
export function TrafficHeader() {
  return (
    <div className="traffic-grid traffic-head" aria-hidden="true">
      <span>Time</span>
      <span>Key</span>
      <span>Endpoint</span>
      <span>Model</span>
      <span>Deployment</span>
      <span>Status</span>
      <span className="align-right">Latency</span>
      <span className="align-right">Tokens</span>
      <span className="align-right">Cost</span>
    </div>
  );
}

function statusClass(status: number): string {
  if (status >= 500) return 'status-code status-5xx';
  if (status >= 400) return 'status-code status-4xx';
  return 'status-code status-2xx';
}

/** What a screen reader says for a request in the list: the columns, each named. */
export function trafficRowLabel(event: TrafficEvent): string {
  const tokens = event.prompt_tokens + event.completion_tokens;
  return [
    `${event.status} ${event.method} ${event.path}`,
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
      <span className="mono muted">{clockTime(event.started_at)}</span>
      <span className="truncate">{event.key_name ?? <span className="muted">{event.key_id ?? '—'}</span>}</span>
      <span className="mono truncate">{event.path}</span>
      <span
        className="mono truncate"
        title={
          event.requested_model && event.requested_model !== event.model
            ? `requested ${event.requested_model}`
            : undefined
        }
      >
        {event.model ?? event.requested_model ?? '—'}
      </span>
      <span className="mono truncate muted">{event.deployment ?? '—'}</span>
      <span>
        <span className={statusClass(event.status)}>{event.status}</span>
        {event.stream && <span className="muted traffic-flag">stream</span>}
        {event.cached && <span className="muted traffic-flag">cached</span>}
      </span>
      <span className="mono align-right">{formatLatency(event.latency_ms)}</span>
      <span
        className="mono align-right"
        title={`${event.prompt_tokens} prompt + ${event.completion_tokens} completion`}
      >
        {tokens ? formatCompact(tokens) : '—'}
      </span>
      <span className="mono align-right">{event.cost_usd ? formatCost(event.cost_usd) : '—'}</span>
    </div>
  );
}
