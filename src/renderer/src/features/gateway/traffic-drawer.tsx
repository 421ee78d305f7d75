import type { ReactNode } from 'react';
import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { CopyButton } from '../../components/copy-button.js';
import { Drawer } from '../../components/drawer.js';
import { AlertIcon } from '../../components/icons.js';
import { useApi } from '../../api/api-context.js';
import { useModelSettings } from '../../api/gateway-queries.js';
import { toCurl } from '../../lib/curl.js';
import { formatInt, formatLatency, fullTime } from '../../lib/format.js';
import { LIMIT_WORDS, limitWordOf } from '../../lib/limit-words.js';
import { transcriptEvents } from '../../lib/stream-transcript.js';
import { tokenParts } from '../../lib/token-details.js';
import { PiiNote, PolicyNote } from './guardrails-note.js';
import { answerErrorOf, policyStop, reachedStage, type PolicyStage, type PolicyStop } from './traffic-stages.js';
import { costView, UNPRICED_COST_TITLE, type PriceSettings } from './unpriced-models.js';
import { Detail } from '../../components/detail-item.js';

function pretty(body: unknown): string {
  if (body === null || body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function Body({
  title,
  what,
  body,
  note,
}: {
  readonly title: string;
  readonly what: string;
  readonly body: unknown;
  /** What the body is, when the title alone would mislead. */
  readonly note?: string;
}) {
  const text = pretty(body);
  return (
    <section className="drawer-section">
      <div className="drawer-section-header">
        <span className="section-title">{title}</span>
        {text && <CopyButton text={text} what={what} variant="ghost" />}
      </div>
      {note && <p className="muted drawer-section-note">{note}</p>}
      {text ? (
        // A focusable, named region, so a keyboard scrolls it in every browser (Firefox and Safari focus
        // no plain pre) and a screen reader says what it is on the way in (a bare pre may not be named).
        <pre className="code-block code-block-scroll" tabIndex={0} role="region" aria-label={capitalise(what)}>
          {text}
        </pre>
      ) : (
        <p className="muted">No body recorded.</p>
      )}
    </section>
  );
}

/** A recorded stream as its events, one per line: name and what it carried. */
function StreamEvents({ body }: { readonly body: unknown }) {
  const events = typeof body === 'string' ? transcriptEvents(body) : undefined;
  if (events === undefined || events.length === 0) return null;
  return (
    <section className="drawer-section" data-testid="stream-events">
      <div className="drawer-section-header">
        <span className="section-title">Stream events ({events.length})</span>
      </div>
      <ol className="code-block code-block-scroll stream-events" tabIndex={0} aria-label="Stream events">
        {events.map((event, index) => (
          <li key={index}>
            <span className="mono">{event.name}</span> {event.summary}
          </li>
        ))}
      </ol>
    </section>
  );
}

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
 * One request in full: what it was, where it went, the request body as received with the gateway's
 * rewrites (not the provider's own form of it) and the answer as sent.
 */
export function TrafficDrawer({
  event,
  onClose,
}: {
  readonly event: TrafficEvent;
  readonly onClose: (focusWasInside: boolean) => void;
}) {
  const api = useApi();
  const curl = toCurl({
    baseUrl: api.baseUrl('gateway'),
    method: event.method,
    path: event.path,
    body: event.request_body,
  });
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
        <CopyButton
          text={curl}
          label={event.request_body === null && event.method !== 'GET' ? 'Copy as curl (no body)' : 'Copy as curl'}
        />
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
        {event.status >= 400 && errorMessageOf(event.response_body) !== undefined && (
          <div className="detail-item detail-item-wide">
            <dt>Error</dt>
            <dd data-testid="traffic-error-message">{errorMessageOf(event.response_body)}</dd>
          </div>
        )}
        <Detail label="Time">{fullTime(event.started_at)}</Detail>
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
      {scrubbed ? (
        <Body
          title="Request (as forwarded, scrubbed)"
          what="request body"
          body={event.request_body}
          note={`The PII stage ${scrubbed === 'mask' ? 'masked' : 'redacted'} what it found: this is the body with placeholders, as the provider saw it; the client sent the real values, which are not kept.`}
        />
      ) : (
        <Body
          title="Request (as received, with the gateway's rewrites)"
          what="request body"
          body={event.request_body}
          note="The client's body with the routed model and a capped max_tokens. What the provider received (its own model name, the stream options the gateway adds) is not kept."
        />
      )}
      <StreamEvents body={event.response_body} />
      {scrubbed === 'mask' ? (
        <Body
          title="Response (as the provider sent it, before restoration)"
          what="response body"
          body={event.response_body}
          note="With the placeholders the provider saw: the client got its real values back in their place."
        />
      ) : (
        <Body title="Response" what="response body" body={event.response_body} />
      )}
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
