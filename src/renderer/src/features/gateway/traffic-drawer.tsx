import type { ReactNode } from 'react';
import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { CopyButton } from '../../components/copy-button.js';
import { Drawer } from '../../components/drawer.js';
import { AlertIcon } from '../../components/icons.js';
import { useApi } from '../../api/api-context.js';
import { useModelSettings } from '../../api/gateway-queries.js';
import { finishedAt } from '../../api/traffic-buffer.js';
import { useTrafficBodies } from '../../api/traffic-queries.js';
import { toCurl } from '../../lib/curl.js';
import { formatInt, formatLatency, fullTime } from '../../lib/format.js';
import { LIMIT_WORDS, limitWordOf } from '../../lib/limit-words.js';
import { tokenParts } from '../../lib/token-details.js';
import { PiiNote, PolicyNote } from './guardrails-note.js';
import { answerErrorOf, policyStop, reachedStage, type PolicyStage, type PolicyStop } from './traffic-stages.js';
import { costView, UNPRICED_COST_TITLE, type PriceSettings } from './unpriced-models.js';
import { Detail } from '../../components/detail-item.js';
import { TrafficBodies } from './traffic-bodies.js';

/** What the response cache did for the request, in words. */
function cacheLabel(cache: TrafficEvent['cache']): string | undefined {
  switch (cache) {
    case 'hit':
      return 'hit: answered from the cache, no upstream call';
    case 'miss':
      return 'miss: answered upstream and kept';
    case 'bypass':
      return 'bypassed by the request (Cache-Control)';
    case null:
    case undefined:
      return undefined;
  }
}

/** A policy stage the request was refused before: it did nothing, whatever its settings. */
function NotReached({ stage }: { readonly stage: PolicyStage }) {
  return (
    <span className="muted" data-testid={`not-reached-${stage}`}>
      not reached
    </span>
  );
}

/** What the limits stage did: the limit that refused the request, or what it reserved (none: undefined). */
function limitsNote(event: TrafficEvent, stop: PolicyStop | undefined): ReactNode {
  if (stop?.at === 'limits') return `refused${stop.limitType ? `: ${LIMIT_WORDS[limitWordOf(stop.limitType)]}` : ''}`;
  if (!reachedStage(stop, 'limits')) return <NotReached stage="limits" />;
  return event.limits
    ? `reserved ${formatInt(event.limits.reserved_tokens)} tokens (prompt ${formatInt(event.limits.prompt_tokens)}${event.limits.estimated ? ', an estimate' : ''})`
    : undefined;
}

/**
 * Whether the PII stage replaced values with placeholders before the provider saw them: the bodies
 * kept then differ from what the client sent (masked or redacted) and, when masked, from what it got.
 */
function scrubbedBy(event: TrafficEvent): 'mask' | 'redact' | undefined {
  const mode = event.guardrails?.pii_mode;
  if (mode !== 'mask' && mode !== 'redact') return undefined;
  const found = Object.values(event.guardrails?.pii_entities ?? {}).some((count) => count > 0);
  return found ? mode : undefined;
}

/** The request's cost, or "unpriced" said as such (never "$0"); none (undefined) shows as "—". */
function costDetail(event: TrafficEvent, prices: PriceSettings | undefined): ReactNode {
  const cost = costView(event.cost_usd, event.model, event.prompt_tokens + event.completion_tokens, prices);
  if (!cost.unpriced) return cost.text;
  return (
    <span data-testid="traffic-cost-unpriced" title={UNPRICED_COST_TITLE}>
      unpriced <span className="muted">(no price set: counted by no dollar budget)</span>
    </span>
  );
}

/** The model asked for and the one routed to; a request refused before routing has only the first. */
function tokensLine(event: TrafficEvent): string {
  const [prompt, completion] = tokenParts(event, formatInt);
  return `${prompt} prompt + ${completion} completion`;
}

function modelLabel(event: TrafficEvent): string | undefined {
  if (event.model === null) return event.requested_model ? `${event.requested_model} (not routed)` : undefined;
  return event.requested_model && event.requested_model !== event.model
    ? `${event.requested_model} → ${event.model}`
    : event.model;
}

/**
 * A failed request's message, read from its answer (OpenAI's `{error: {message}}`, Anthropic's
 * `{type: "error", error: {message}}`), so it can be read whole beside its status.
 */
export function errorMessageOf(body: unknown): string | undefined {
  const message = answerErrorOf(body)?.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/**
 * One request in full: what it was, where it went (from the view's buffer, at once), the request body
 * as received with the gateway's rewrites (not the provider's own form of it) and the answer as sent
 * (read by the request's number when the drawer opens: the buffer keeps no bodies).
 */
export function TrafficDrawer({
  event,
  onClose,
}: {
  readonly event: TrafficEvent;
  readonly onClose: (focusWasInside: boolean) => void;
}) {
  const api = useApi();
  const bodies = useTrafficBodies(event.seq);
  const full = bodies.data;
  const curl =
    full &&
    toCurl({ baseUrl: api.baseUrl('gateway'), method: event.method, path: event.path, body: full.request_body });
  const errorMessage = full && errorMessageOf(full.response_body);
  const stop = policyStop(event);
  const scrubbed = scrubbedBy(event);
  const prices = useModelSettings().data;
  return (
    <Drawer
      testId="traffic-drawer"
      title={
        <span className="mono">
          {event.method} {event.path}
        </span>
      }
      onClose={onClose}
      // A request refused before its body was read has none recorded: the command would not replay it.
      actions={
        full &&
        curl && (
          <CopyButton
            text={curl}
            label={full.request_body === null && event.method !== 'GET' ? 'Copy as curl (no body)' : 'Copy as curl'}
          />
        )
      }
    >
      {event.truncated && (
        <div className="notice notice-warning">
          <AlertIcon />
          <span>The bodies were truncated in the traffic buffer; the curl command replays the truncated request.</span>
        </div>
      )}
      {event.guardrails?.blocked && (
        <div className="notice notice-warning" data-testid="guardrails-blocked">
          <AlertIcon />
          <span>
            Refused by {event.guardrails.blocked.stage === 'pii' ? 'the PII stage' : 'the content policy'}:{' '}
            {event.guardrails.blocked.reason}
          </span>
        </div>
      )}
      <dl className="detail-grid">
        <Detail label="Status">
          {event.status}
          {event.error_type ? ` · ${event.error_type}` : ''}
        </Detail>
        {event.status >= 400 && errorMessage !== undefined && (
          <div className="detail-item detail-item-wide">
            <dt>Error</dt>
            <dd data-testid="traffic-error-message">{errorMessage}</dd>
          </div>
        )}
        <Detail label="Started">{fullTime(event.started_at)}</Detail>
        <Detail label="Finished">{fullTime(finishedAt(event))}</Detail>
        <Detail label="Latency">{formatLatency(event.latency_ms)}</Detail>
        <Detail label="Request id">
          <span className="mono">{event.request_id}</span>
        </Detail>
        <Detail label="Model">{modelLabel(event)}</Detail>
        <Detail label="Deployment">
          {event.deployment ? `${event.deployment} (${event.provider ?? '?'})` : event.provider}
        </Detail>
        <Detail label="Key">{event.key_name ?? event.key_id}</Detail>
        <Detail label="User / team">{[event.user, event.team].filter(Boolean).join(' / ') || undefined}</Detail>
        <Detail label="Tokens">{tokensLine(event)}</Detail>
        {/* An unpriced model's request says so: its $0 was never counted, and is not "free". */}
        <Detail label="Cost">{costDetail(event, prices)}</Detail>
        <Detail label="Limits">{limitsNote(event, stop)}</Detail>
        <Detail label="Cache">{cacheLabel(event.cache)}</Detail>
        {event.trace_id && (
          <Detail label="Trace id">
            <span className="mono" data-testid="trace-id">
              {event.trace_id}
            </span>
          </Detail>
        )}
        <Detail label="Mode">
          {[
            event.stream ? 'streamed' : 'single response',
            event.cached ? 'from cache' : undefined,
            event.attempts > 1 ? `${event.attempts} attempts` : undefined,
          ]
            .filter(Boolean)
            .join(', ')}
        </Detail>
        <Detail label="PII">
          {reachedStage(stop, 'pii') ? <PiiNote outcome={event.guardrails} /> : <NotReached stage="pii" />}
        </Detail>
        <Detail label="Content policy">
          {reachedStage(stop, 'content_policy') ? (
            <PolicyNote outcome={event.guardrails} />
          ) : (
            <NotReached stage="content_policy" />
          )}
        </Detail>
      </dl>
      <TrafficBodies
        event={event}
        read={{ full, error: bodies.error, retry: () => void bodies.refetch(), retrying: bodies.isFetching }}
        scrubbed={scrubbed}
      />
    </Drawer>
  );
}

/**
 * A request an address names that the view does not hold: the gateway keeps only its newest
 * requests for this view, so an old link says so rather than opening on nothing.
 */
export function MissingRequestDrawer({
  requestId,
  onClose,
}: {
  readonly requestId: string;
  readonly onClose: (focusWasInside: boolean) => void;
}) {
  return (
    <Drawer testId="traffic-drawer" title="Request not found" onClose={onClose}>
      <div className="notice notice-warning" role="status">
        <AlertIcon />
        <span>
          Request <span className="mono">{requestId}</span> is not among the recent requests: the gateway keeps only the
          newest ones for this view (<span className="mono">gateway.traffic_buffer</span>), so it has left them, or it
          never passed through this gateway. Its totals are still counted on the Usage screen.
        </span>
      </div>
    </Drawer>
  );
}
