import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { finishedAt } from '../../api/traffic-buffer.js';
import { clockTime, formatCompact, formatLatency } from '../../lib/format.js';
import { failed } from './traffic-filter.js';
import { costView, UNPRICED_COST_TITLE, type PriceSettings } from './unpriced-models.js';

/**
 * Column headers, aligned with {@link TrafficRow} by the shared grid template; each cell's `col-*`
 * class lets the stylesheet drop the less important columns when the list is narrow. Visual only: the list
 * is a listbox, whose options carry their own names ({@link trafficRowLabel}), so the headers are
 * hidden from assistive technology rather than posing as a row of a grid.
 */
export function TrafficHeader() {
  return (
    <div className="traffic-grid traffic-head" aria-hidden="true">
      {/* The list is in finish order, so it shows when each request finished (the drawer has both times). */}
      <span className="col-time">Finished</span>
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

/** Why the content policy stopped the answer (the client got a content-filter ending), if it did. */
const answerStopped = (event: TrafficEvent): string | undefined => event.guardrails?.answer_stopped?.reason;

/** The text of each column of a request's row, as the row shows it (its cost read by today's `prices`). */
function columnTexts(event: TrafficEvent, prices: PriceSettings | undefined) {
  const tokens = event.prompt_tokens + event.completion_tokens;
  const cost = costView(event.cost_usd, event.model, tokens, prices);
  return {
    time: clockTime(finishedAt(event)),
    key: event.key_name ?? event.key_id ?? '—',
    model: event.model ?? event.requested_model ?? '—',
    deployment: event.deployment ?? '—',
    latency: formatLatency(event.latency_ms),
    tokens: tokens ? formatCompact(tokens) : '—',
    cost: cost.text ?? '—',
    unpriced: cost.unpriced,
  };
}

/**
 * What assistive technology names a request in the list: first the row's text, column by column as
 * it shows (so "click" and what is on screen reach it by voice), then what the row only hints at.
 */
export function trafficRowLabel(event: TrafficEvent, prices: PriceSettings | undefined): string {
  const text = columnTexts(event, prices);
  const status = [
    event.status,
    ...(event.stream ? ['stream'] : []),
    ...(failedAfterStart(event) ? ['failed'] : []),
    ...(event.cached ? ['cached'] : []),
    ...(answerStopped(event) ? ['stopped'] : []),
  ].join(' ');
  return [
    text.time,
    text.key,
    event.path,
    text.model,
    text.deployment,
    status,
    text.latency,
    text.tokens,
    text.cost,
    `method ${event.method}`,
    ...(event.requested_model && event.requested_model !== event.model
      ? [`requested model ${event.requested_model}`]
      : []),
    ...(failedAfterStart(event) ? [`failed after it began: ${failedAfterStart(event)}`] : []),
    ...(event.prompt_tokens + event.completion_tokens
      ? [`${event.prompt_tokens} prompt and ${event.completion_tokens} completion tokens`]
      : []),
  ].join(', ');
}

/** One request in the live table. */
export function TrafficRow({
  event,
  prices,
}: {
  readonly event: TrafficEvent;
  readonly prices: PriceSettings | undefined;
}) {
  const text = columnTexts(event, prices);
  return (
    <div className="traffic-grid traffic-row" data-testid="traffic-row" data-request-id={event.request_id}>
      <span className="col-time mono muted">{text.time}</span>
      <span className="col-key truncate" title={event.key_name ?? event.key_id ?? undefined}>
        {event.key_name ?? <span className="muted">{text.key}</span>}
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
        {text.model}
      </span>
      <span className="col-deployment mono truncate muted" title={event.deployment ?? undefined}>
        {text.deployment}
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
        {answerStopped(event) && (
          <span className="muted traffic-flag" title={`Answer stopped: ${answerStopped(event)}`}>
            stopped
          </span>
        )}
      </span>
      <span className="col-latency mono align-right">{text.latency}</span>
      <span
        className="col-tokens mono align-right"
        title={`${event.prompt_tokens} prompt + ${event.completion_tokens} completion`}
      >
        {text.tokens}
      </span>
      <span className="col-cost mono align-right" title={text.unpriced ? UNPRICED_COST_TITLE : undefined}>
        {text.cost}
      </span>
    </div>
  );
}
