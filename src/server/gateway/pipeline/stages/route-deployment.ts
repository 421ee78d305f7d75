import type { IncomingHttpHeaders } from 'node:http';
import { MAX_REQUEST_TIMEOUT_MS } from '../../../config/schema.js';
import { AppError, badRequest } from '../../../http/errors.js';
import { TranslationError } from '../../formats/translation-error.js';
import type { DeploymentHealthTracker } from '../../model-registry/deployment-health.js';
import {
  blamesDeployment,
  UnsupportedOperationError,
  UpstreamError,
  upstreamErrorDetail,
} from '../../providers/upstream-error.js';
import type { ProviderAnswer } from '../../providers/answer.js';
import type { Deployment } from '../../providers/types.js';
import type { ClientWatch } from '../client-connection.js';
import type { Endpoint, RequestContext } from '../request-context.js';
import { capableDeployments, requiredCapabilities } from './capabilities.js';
import { MAX_SDK_WAIT_SECONDS } from '../../sdk-wait.js';
import { deploymentLabel, modelLabel } from '../../metrics/gateway-metrics.js';
import { upstreamFailureReason } from '../../metrics/upstream-failure-reason.js';
import { passedThroughContext } from '../../telemetry/traceparent.js';

/** Endpoints whose requests need capabilities of the deployment that answers them. */
const GENERATING: ReadonlySet<Endpoint> = new Set(['chat', 'messages', 'responses']);

/**
 * The order to try deployments in: a weighted random draw without replacement (so load follows the
 * weights and every deployment is a fallback for the others), deployments cooling down last.
 */
export function deploymentOrder(
  deployments: readonly Deployment[],
  health: DeploymentHealthTracker,
  random: () => number = Math.random,
): readonly Deployment[] {
  // One deployment is its own order (the list is only read): no copy on the common path.
  if (deployments.length <= 1) return deployments;
  const pool = [...deployments];
  const ordered: Deployment[] = [];
  // Weights as shares of the largest: a sum of weights near the largest number would overflow to
  // Infinity and hand every first choice to the last deployment.
  let largest = 0;
  for (const d of pool) largest = Math.max(largest, d.weight);
  while (pool.length > 0) {
    let total = 0;
    for (const d of pool) total += d.weight / largest;
    let pick = random() * total;
    let index = 0;
    for (; index < pool.length - 1; index += 1) {
      pick -= pool[index]!.weight / largest;
      if (pick < 0) break;
    }
    ordered.push(pool.splice(index, 1)[0]!);
  }
  const ready = ordered.filter((d) => !health.coolingDown(d.id));
  return ready.length === ordered.length ? ordered : [...ready, ...ordered.filter((d) => health.coolingDown(d.id))];
}

/** Makes the route stage try first the ready deployment `prefers` picks (the order after it unchanged). */
export function tryFirst(ctx: RequestContext, prefers: (deployment: Deployment) => boolean): void {
  ctx.firstChoice = prefers;
}

/**
 * `order` with the first ready deployment `prefers` picks moved to its front, the others in their
 * order; `order` itself when none is ready, or it already leads.
 */
function withFirstChoice(
  order: readonly Deployment[],
  prefers: ((deployment: Deployment) => boolean) | undefined,
  health: DeploymentHealthTracker,
): readonly Deployment[] {
  if (prefers === undefined) return order;
  const index = order.findIndex((deployment) => !health.coolingDown(deployment.id) && prefers(deployment));
  if (index <= 0) return order;
  return [order[index]!, ...order.slice(0, index), ...order.slice(index + 1)];
}

/**
 * The 502 answered for a provider failure, with the provider's status in `x-upstream-status`. A
 * failure that another try cannot fix (a 400, 401, 404 from the provider) says so in
 * `x-should-retry: false`, which both official SDKs obey instead of resending it three times, and so
 * does one the gateway already retried (its own retries or fallbacks, with backoff, waiting as the
 * provider asked): the SDK would resend the whole chain, up to three times as many calls to a provider
 * that is already refusing them. A retryable failure keeps the provider's `Retry-After`: the SDKs wait
 * for it before they resend one the gateway tried once, and a caller reads it either way; a wait past
 * a minute is the caller's to decide too.
 */
export function upstreamFailure(error: UpstreamError, attempts: number, deadlineMs?: number): AppError {
  const suffix =
    (attempts > 1 ? ` (after ${attempts} attempts)` : '') +
    (deadlineMs === undefined
      ? ''
      : `; not tried again: the wait would outlast the request's ${deadlineMs} ms deadline`);
  const headers: Record<string, string> = {};
  if (error.status > 0) headers['x-upstream-status'] = String(error.status);
  const asked = error.retryable ? error.retryAfterSeconds : undefined;
  if (asked !== undefined) {
    headers['retry-after'] = String(asked);
    // Both SDKs read this one first: a provider's wait of 200 ms stays 200 ms, not a whole second.
    headers['retry-after-ms'] = String(error.retryAfterMs);
  }
  // Cut short by the caller's deadline: an SDK's resend would start another whole wait.
  if (
    !error.retryable ||
    attempts > 1 ||
    deadlineMs !== undefined ||
    (asked !== undefined && asked > MAX_SDK_WAIT_SECONDS)
  )
    headers['x-should-retry'] = 'false';
  if (error.requestId !== undefined) headers['x-upstream-request-id'] = error.requestId;
  return new AppError('upstream_error', `${error.message}${suffix}`, { headers, upstream: upstreamErrorDetail(error) });
}

/** Waits `ms`, or less when the client leaves (then there is nobody to answer). */
function pause(ms: number, signal: ClientWatch): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.off('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.once('abort', done);
  });
}

/**
 * How long to wait before retry number `retry` (1-based): the upstream's Retry-After when it gave one
 * (undefined when that is longer than the gateway will wait, so the caller falls back at once),
 * otherwise exponential backoff with jitter, so that clients retrying together spread out.
 */
export function retryDelay(
  retry: number,
  error: UpstreamError,
  settings: { readonly backoffMs: number; readonly maxWaitMs: number },
  random: () => number = Math.random,
): number | undefined {
  if (error.retryAfterMs !== undefined) {
    const asked = error.retryAfterMs;
    return asked > settings.maxWaitMs ? undefined : asked;
  }
  const ceiling = Math.min(settings.backoffMs * 2 ** (retry - 1), settings.maxWaitMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The request header that sets a request's total deadline, in ms. */
const DEADLINE_HEADER = 'x-gatehouse-timeout-ms';

const WHOLE_MS = /^\d+$/;

/**
 * A request's total deadline in ms, counted from its arrival: its `x-gatehouse-timeout-ms`, else
 * `gateway.request_timeout_ms`, else none. A value that cannot be read is a 400 naming the header.
 */
export function requestDeadlineMs(headers: IncomingHttpHeaders, configuredMs: number | undefined): number | undefined {
  const value = headers[DEADLINE_HEADER];
  if (value === undefined) return configuredMs;
  const text = (Array.isArray(value) ? value.join(', ') : value).trim();
  const ms = Number(text);
  if (!WHOLE_MS.test(text) || ms < 1 || ms > MAX_REQUEST_TIMEOUT_MS)
    throw badRequest(
      `header ${DEADLINE_HEADER} must be a whole number of milliseconds from 1 to ${MAX_REQUEST_TIMEOUT_MS}, got '${String(value)}'`,
      DEADLINE_HEADER,
    );
  return ms;
}

/**
 * How early an attempt's timer may fire: Node counts a timer from the event loop's clock as the
 * current turn began, so one set late in a busy turn fires that much early by `performance.now()`.
 */
const TIMER_SLACK_MS = 50;

/**
 * The deployment as one attempt calls it, its wait for the answer's first body bytes (headers
 * included) no longer than the deadline leaves: the deployment itself when its own `timeout_ms` ends
 * both the wait for headers and the one after them first (no copy), undefined when no time is left.
 * Silences once the body has begun keep the deployment's `timeout_ms`: the deadline ends at the first byte.
 */
function withinDeadline(deployment: Deployment, leftMs: number): Deployment | undefined {
  if (leftMs < 1) return undefined;
  if (deployment.timeoutMs > 0 && deployment.timeoutMs * 2 <= leftMs) return deployment;
  return { ...deployment, headersTimeoutMs: Math.ceil(leftMs) };
}

/**
 * The deadline the request gets: at most `gateway.max_request_timeout_ms`. A header asking for longer
 * is lowered to it, and the answer (or its failure) carries the deadline applied in
 * `x-gatehouse-timeout-ms`; a request's deadline within the maximum is used as it is, and not echoed.
 */
function appliedDeadlineMs(ctx: RequestContext, deadlineMs: number | undefined): number | undefined {
  const capped = cappedDeadlineMs(ctx, deadlineMs);
  if (capped !== deadlineMs) ctx.replyHeaders = { ...ctx.replyHeaders, [DEADLINE_HEADER]: String(capped) };
  return capped;
}

/** A deadline lowered to `gateway.max_request_timeout_ms` where it asks for longer. */
function cappedDeadlineMs(ctx: RequestContext, deadlineMs: number | undefined): number | undefined {
  const maximum = ctx.services.config.gateway.max_request_timeout_ms;
  return deadlineMs === undefined || maximum === undefined || deadlineMs <= maximum ? deadlineMs : maximum;
}

/**
 * When (by `performance.now()`) the request's deadline ends, as the route stage will apply it; Infinity
 * without one. For a wait before routing (an identical request's answer): once it has passed, the
 * route stage answers deadlineExceeded before any upstream call. Read only by requests that wait.
 */
export function deadlineEndsAt(ctx: RequestContext): number {
  const deadlineMs = cappedDeadlineMs(
    ctx,
    requestDeadlineMs(ctx.headers, ctx.services.config.gateway.request_timeout_ms),
  );
  return deadlineMs === undefined ? Infinity : ctx.startedAt + deadlineMs;
}

/**
 * The answer when the request's deadline ends it: a timeout, as the upstream's own is answered (502
 * `upstream_error`, `error.upstream.type` `timeout`), naming the deadline and what set it. Not to be
 * resent: the deadline is the caller's whole wait, and an SDK's retry would start another.
 */
function deadlineExceeded(ctx: RequestContext, deadlineMs: number): AppError {
  const source =
    ctx.headers[DEADLINE_HEADER] === undefined
      ? 'gateway.request_timeout_ms'
      : ctx.replyHeaders?.[DEADLINE_HEADER] === undefined
        ? DEADLINE_HEADER
        : `${DEADLINE_HEADER}, lowered to gateway.max_request_timeout_ms`;
  const tried =
    ctx.attempts === 0 ? ', before any upstream call' : ctx.attempts > 1 ? `, after ${ctx.attempts} attempts` : '';
  const message = `no answer within the request's ${deadlineMs} ms deadline (${source})${tried}`;
  const timeout = new UpstreamError(message, { status: 0, retryable: false, upstreamType: 'timeout' });
  return new AppError('upstream_error', message, {
    headers: { 'x-should-retry': 'false' },
    upstream: upstreamErrorDetail(timeout),
  });
}

/**
 * The route stage: calls the provider on the model's deployments in turn until one answers. A
 * retryable UpstreamError (429, 5xx, timeout, connection error) is retried on the same deployment
 * up to its `maxRetries` (waiting as retryDelay says), then the next deployment is tried; another
 * refusal of the deployment (401, 403, 404, ...) goes to the next one at once; a refusal of the
 * request itself (400, 413, 422), anything else, or the last failure becomes the answer. Calls resolve only before the first byte reaches
 * the client, so a retry can never follow a started stream.
 *
 * With a deadline (`deadlineMs` after the request's arrival, at most `gateway.max_request_timeout_ms`),
 * each attempt's wait for its body's first bytes ends at the latest when the time left does, and no
 * attempt or wait starts past it: a wait that would end past it is skipped for the next deployment,
 * and the request ends with deadlineExceeded.
 */
export async function route(
  ctx: RequestContext,
  call: (deployment: Deployment) => Promise<ProviderAnswer>,
  requestedDeadlineMs?: number,
): Promise<ProviderAnswer> {
  const { registry, health, config } = ctx.services;
  const served = registry.deploymentsFor(ctx.model!);
  if (served.length === 0)
    throw new AppError(
      'model_not_allowed',
      `no provider serves model '${ctx.model ?? ctx.requestedModel}': its name has no provider prefix (ollama/…, openai/…) and no deployment serves it; an admin adds a deployment for it`,
    );
  // Only deployments that declare capabilities can be unfit: most declare none, and cost nothing here.
  const deployments =
    GENERATING.has(ctx.endpoint) && served.some((deployment) => deployment.capabilities !== undefined)
      ? capableDeployments(served, requiredCapabilities(ctx.endpoint, ctx.body), ctx.model!)
      : served;
  if (deployments[0]?.unsetKeyVariable !== undefined) refuseWithoutKey(ctx, deployments);
  const signal = ctx.signal;
  if (ctx.trace === undefined && ctx.headers.traceparent !== undefined)
    ctx.traceHeaders = passedThroughContext(ctx.headers.traceparent, ctx.headers.tracestate);
  const deadlineMs = appliedDeadlineMs(ctx, requestedDeadlineMs);
  const endsAt = deadlineMs === undefined ? Infinity : ctx.startedAt + deadlineMs;
  let last: UpstreamError | undefined;
  let previous: Deployment | undefined;
  let cutByDeadline = false;
  const weighted = deploymentOrder(deployments, health);
  const ordered = weighted.length > 1 ? withFirstChoice(weighted, ctx.firstChoice, health) : weighted;
  for (const deployment of ordered) {
    ctx.deployment = deployment;
    for (let retry = 0; retry <= deployment.maxRetries; retry += 1) {
      if (retry > 0) {
        const wait = retryDelay(retry, last!, {
          backoffMs: config.gateway.retry_backoff_ms,
          maxWaitMs: config.gateway.max_retry_wait_ms,
        });
        if (wait === undefined) break;
        // A wait that would outlast the deadline is not waited: the next deployment may still answer in time.
        if (deadlineMs !== undefined && performance.now() + wait >= endsAt) {
          cutByDeadline = true;
          break;
        }
        await pause(wait, signal);
      }
      if (signal.aborted) throw new ClientClosedError();
      let attempt: Deployment | undefined = deployment;
      if (deadlineMs !== undefined) {
        attempt = withinDeadline(deployment, endsAt - performance.now());
        if (attempt === undefined) throw deadlineExceeded(ctx, deadlineMs);
      }
      if (retry > 0) ctx.services.metrics.upstreamRetry(failureLabel(ctx), deploymentOf(ctx));
      else if (previous !== undefined)
        ctx.services.metrics.upstreamFallback(failureLabel(ctx), deploymentLabel(previous, registry));
      previous = deployment;
      ctx.attempts += 1;
      health.calling(deployment);
      const started = performance.now();
      const trace = ctx.trace;
      if (trace !== undefined) ctx.traceHeaders = trace.startAttempt(ctx.endpoint, deployment, ctx.body, ctx.attempts);
      ctx.upstreamPending = true;
      // An earlier attempt's id (a stream that failed on its first event) is not this answer's.
      ctx.upstreamRequestId = undefined;
      try {
        const answer = await call(attempt);
        ctx.upstreamPending = false;
        const answeredAt = performance.now();
        const latencyMs = answeredAt - started;
        // A stream can still fail after it started: the finishing stage records how it ended.
        if (answer.kind === 'stream' && !signal.aborted) ctx.relayedStream = { deployment, latencyMs };
        else health.success(deployment, latencyMs);
        observeAnswer(ctx, answer.kind, answeredAt, latencyMs);
        trace?.attemptIdentified(ctx.upstreamRequestId);
        if (answer.kind === 'json') trace?.attemptAnswered(answer.usage, answer.body);
        return answer;
      } catch (error) {
        // A call the shutdown cancelled had been sent: its prompt is charged, as a client's leaving is.
        ctx.upstreamPending = signal.aborted && signal.shuttingDown;
        // A 2xx whose stream broke on its first event has its id from the headers, not from the error.
        if (trace !== undefined) trace.attemptFailed(error, ctx.upstreamRequestId);
        // The client left: nobody is waiting for a retry, and it says nothing about the deployment,
        // unless the deployment had been silent for nearly its whole timeout.
        if (signal.aborted) {
          if (error instanceof UpstreamError && error.silentMs !== undefined)
            abandonedWhileSilent(ctx, deployment, error.silentMs);
          throw new ClientClosedError();
        }
        if (!(error instanceof UpstreamError)) throw translateProviderError(error);
        // The deadline's timer, not the deployment's own timeout_ms: by itself no failure of the deployment.
        if (
          attempt !== deployment &&
          error.upstreamType === 'timeout' &&
          performance.now() >= endsAt - TIMER_SLACK_MS
        ) {
          recordDeadlineCut(ctx, deployment, performance.now() - started);
          throw deadlineExceeded(ctx, deadlineMs!);
        }
        const blamed = blamesDeployment(error) && !concernsCallersKey(ctx, error);
        // An upstream that asks for a longer pause than the gateway waits is not asked again meanwhile.
        const asked = error.retryAfterMs ?? 0;
        const unavailableMs = asked > config.gateway.max_retry_wait_ms ? asked : 0;
        health.failure(deployment, performance.now() - started, error.status, error.message, blamed, unavailableMs);
        // The upstream's failures, not the caller's: a request the provider refused as malformed is not one.
        if (blamed)
          ctx.services.metrics.upstreamFailure(
            failureLabel(ctx),
            'before_answer',
            deploymentOf(ctx),
            upstreamFailureReason(error),
          );
        last = error;
        if (error.retryable) continue;
        // A refusal of this deployment (its key, model or address) is no reason to fail a model that
        // others serve; a refusal of the request itself would fail on every one of them.
        if (blamed) break;
        throw upstreamFailure(error, ctx.attempts);
      } finally {
        health.called(deployment);
      }
    }
  }
  if (!cutByDeadline) throw upstreamFailure(last!, ctx.attempts);
  // Given up before the deadline passed, for a wait that would outlast it: the upstream's failure is
  // the answer, not a timeout that has not happened.
  if (performance.now() < endsAt) throw upstreamFailure(last!, ctx.attempts, deadlineMs);
  throw deadlineExceeded(ctx, deadlineMs!);
}

/**
 * Refuses, before anything leaves, a request only deployments with no key could serve (derived for a
 * provider's public address, which would answer 401 to every try): the prompt would go to a
 * destination nobody configured, for a refusal after the retries. A caller that brings its own
 * provider key is sent on with it, and a count that the gateway estimates sends nothing.
 */
function refuseWithoutKey(ctx: RequestContext, deployments: readonly Deployment[]): void {
  if (ctx.principal?.kind === 'passthrough') return;
  if (ctx.endpoint === 'count_tokens' && deployments.every((deployment) => deployment.provider !== 'anthropic')) return;
  const keyless = deployments.every((deployment) => deployment.unsetKeyVariable !== undefined);
  if (!keyless) return;
  const { provider, unsetKeyVariable } = deployments[0]!;
  throw new AppError(
    'service_unavailable',
    `no key for ${provider}: set ${unsetKeyVariable} or providers.${provider}.api_key (the request was not sent)`,
    { headers: { 'x-should-retry': 'false' } },
  );
}

/**
 * Records in the deployment's health an attempt the request's deadline cut; the tracker decides when
 * cuts in a row say the deployment is silent (then it is a failure, counted as such).
 */
function recordDeadlineCut(ctx: RequestContext, deployment: Deployment, waitedMs: number): void {
  if (!ctx.services.health.deadlineCut(deployment, waitedMs)) return;
  ctx.services.metrics.upstreamFailure(failureLabel(ctx), 'before_answer', deploymentOf(ctx), 'timeout');
}

/** The share of a deployment's timeout after which a client leaving counts as the deployment timing out. */
const ABANDONED_TIMEOUT_SHARE = 0.9;

/**
 * Records, as a timeout of the deployment, an attempt whose client left after the upstream had been
 * silent for nearly the deployment's whole `timeout_ms` (since the request went out, or its headers
 * came; not while it waited for a connection). The SDKs give up after 600 s, the default timeout:
 * every client left just before the gateway would have called it a timeout, so a deployment that takes
 * requests and never answers was counted nowhere, never cooled down and took every next request too.
 */
function abandonedWhileSilent(ctx: RequestContext, deployment: Deployment, waitedMs: number): void {
  if (deployment.timeoutMs <= 0 || waitedMs < deployment.timeoutMs * ABANDONED_TIMEOUT_SHARE) return;
  ctx.services.health.failure(
    deployment,
    waitedMs,
    0,
    `no answer after ${Math.round(waitedMs)} ms, when the client left (timeout_ms is ${deployment.timeoutMs})`,
  );
  ctx.services.metrics.upstreamFailure(
    failureLabel(ctx),
    'before_answer',
    deploymentLabel(deployment, ctx.services.registry),
    'timeout',
  );
}

/**
 * Whether the provider refused or rate-limited the key a passthrough caller sent as its own: that is
 * the caller's key and quota, not the deployment's, so it never counts toward the deployment's
 * cooldown (one caller's exhausted quota would move everybody's traffic), and a refused key is not
 * sent on to the others.
 */
function concernsCallersKey(ctx: RequestContext, error: UpstreamError): boolean {
  return (
    ctx.principal?.kind === 'passthrough' && (error.status === 401 || error.status === 403 || error.status === 429)
  );
}

/**
 * Records in the deployment health how a relayed stream ended, once it has (called by the finishing
 * stage): a failure after its start (a dropped connection, a timeout mid-stream, a malformed frame) is
 * the deployment's like any failure before it, so a deployment whose streams keep breaking cools down.
 * A stream the client left is the deployment's success so far.
 */
export function settleStreamHealth(ctx: RequestContext): void {
  const relayed = ctx.relayedStream;
  if (relayed === undefined) return;
  ctx.relayedStream = undefined;
  const failure = ctx.answer?.kind === 'stream' ? ctx.answer.error() : undefined;
  const { health } = ctx.services;
  if (failure === undefined) health.success(relayed.deployment, relayed.latencyMs);
  else {
    health.failure(relayed.deployment, relayed.latencyMs, failure.status, failure.message, blamesDeployment(failure));
    ctx.services.metrics.upstreamFailure(
      failureLabel(ctx),
      'mid_stream',
      deploymentLabel(relayed.deployment, ctx.services.registry),
      upstreamFailureReason(failure),
    );
  }
}

/**
 * The provider's latency for an answer: a whole answer's call, or a stream's wait from the request's
 * arrival to its first frame. Token counts answer no prompt, so they are left out.
 */
function observeAnswer(ctx: RequestContext, kind: ProviderAnswer['kind'], answeredAt: number, latencyMs: number): void {
  if (ctx.endpoint === 'count_tokens') return;
  const { metrics } = ctx.services;
  if (kind === 'stream') metrics.timeToFirstToken.observe(failureLabel(ctx), (answeredAt - ctx.startedAt) / 1000);
  else metrics.observeUpstream(failureLabel(ctx), deploymentOf(ctx), latencyMs / 1000);
}

/** The request's model as the upstream metrics' label. */
function failureLabel(ctx: RequestContext): string {
  return modelLabel(ctx.model, ctx.services.registry);
}

/** The attempt's deployment as the upstream metrics' label. */
function deploymentOf(ctx: RequestContext): string {
  return deploymentLabel(ctx.deployment, ctx.services.registry);
}

/** The client disconnected before an answer: nothing can be sent, the request is accounted as 499. */
export class ClientClosedError extends Error {
  constructor() {
    super('client closed the connection');
    this.name = 'ClientClosedError';
  }
}

/** Requests the provider cannot express are the client's mistake: 400, not 500. */
function translateProviderError(error: unknown): unknown {
  if (error instanceof TranslationError) return badRequest(error.message, error.param);
  if (error instanceof UnsupportedOperationError) return badRequest(error.message);
  return error;
}
