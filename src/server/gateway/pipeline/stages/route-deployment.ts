import { AppError } from '../../../http/errors.js';
import { TranslationError } from '../../formats/translation-error.js';
import { blamesDeployment, UnsupportedOperationError, UpstreamError } from '../../providers/upstream-error.js';
import type { ProviderAnswer } from '../../providers/answer.js';
import type { Deployment } from '../../providers/types.js';
import { PoolsClosedError } from '../../providers/upstream-pools.js';
import type { ClientWatch } from '../client-connection.js';
import type { Endpoint, RequestContext } from '../request-context.js';
import { capableDeployments, requiredCapabilities } from './capabilities.js';
import { deploymentOrder, withFirstChoice } from './deployment-order.js';
import { RequestEndedError } from './request-ended-error.js';
import { appliedDeadlineMs, deadlineExceeded, TIMER_SLACK_MS, withinDeadline } from './request-deadline.js';
import { retryDelay, translateProviderError, upstreamFailure } from './upstream-failure.js';
import { deploymentLabel, modelLabel } from '../../metrics/gateway-metrics.js';
import { upstreamFailureReason } from '../../metrics/upstream-failure-reason.js';
import { passedThroughContext } from '../../telemetry/traceparent.js';

/** Endpoints whose requests need capabilities of the deployment that answers them. */
const GENERATING: ReadonlySet<Endpoint> = new Set(['chat', 'messages', 'responses']);

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
 * The route stage: calls the provider on the model's deployments in turn until one answers. A
 * retryable UpstreamError (429, 5xx, timeout, connection error) is retried on the same deployment
 * up to its `maxRetries` (waiting as retryDelay says), then the next deployment is tried; another
 * refusal of the deployment (401, 403, 404, ...) goes to the next one at once; a refusal of the
 * request itself (400, 413, 422), anything else, or the last failure becomes the answer. Calls resolve only before the first byte reaches
 * the client, so a retry can never follow a started stream. A deployment whose translation refuses the
 * request (a parameter its provider has no equivalent for) is skipped as one lacking a capability is:
 * nothing was sent, so it is no attempt and no failure of it; the refusal (400) is the answer only
 * when no deployment could take the request or call an upstream, the last upstream failure otherwise.
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
  const signal = ctx.watch;
  if (ctx.trace === undefined && ctx.headers.traceparent !== undefined)
    ctx.traceHeaders = passedThroughContext(ctx.headers.traceparent, ctx.headers.tracestate);
  const deadlineMs = appliedDeadlineMs(ctx, requestedDeadlineMs);
  const endsAt = deadlineMs === undefined ? Infinity : ctx.startedAt + deadlineMs;
  let last: UpstreamError | undefined;
  // The deployment `last` came from, and the first refusal of the request by a deployment's translation.
  let failedOn: Deployment | undefined;
  let refusal: { readonly error: Error; readonly deployment: Deployment } | undefined;
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
      if (signal.aborted) throw endedBy(signal);
      let attempt: Deployment | undefined = deployment;
      if (deadlineMs !== undefined) {
        attempt = withinDeadline(deployment, endsAt - performance.now());
        if (attempt === undefined) throw deadlineExceeded(ctx, deadlineMs);
      }
      const previousCalled = previous;
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
        countMove(ctx, retry, previousCalled);
        ctx.upstreamPending = false;
        const answeredAt = performance.now();
        const latencyMs = answeredAt - started;
        // A stream can still fail after it started: the finishing stage records how it ended.
        if (answer.kind === 'json') health.success(deployment, latencyMs);
        else if (!signal.aborted) ctx.relayedStream = { deployment, latencyMs };
        // Its client left as its first frame came: how the stream would have gone is unknown.
        else health.abandoned(deployment);
        observeAnswer(ctx, answer.kind, answeredAt, latencyMs);
        trace?.attemptIdentified(ctx.upstreamRequestId);
        if (answer.kind === 'json') trace?.attemptAnswered(answer.usage, answer.body);
        else trace?.attemptStreaming();
        return answer;
      } catch (error) {
        // A call the shutdown cancelled had been sent: its prompt is charged, as a client's leaving is.
        ctx.upstreamPending = signal.aborted && signal.shuttingDown;
        // Neither a refusal by the translation nor the gateway's shutdown sent anything: no retry or fallback to count.
        if (!refusesRequest(error) && !(error instanceof PoolsClosedError)) countMove(ctx, retry, previousCalled);
        // A 2xx whose stream broke on its first event has its id from the headers, not from the error.
        if (trace !== undefined) trace.attemptFailed(error, ctx.upstreamRequestId);
        // The client left: nobody is waiting for a retry, and it says nothing about the deployment,
        // unless the deployment had been silent for nearly its whole timeout.
        if (signal.aborted) {
          if (error instanceof UpstreamError) leftByClient(ctx, deployment, error.silentMs ?? 0, 'before_answer');
          throw endedBy(signal);
        }
        // Nothing was sent: the gateway's shutdown, told to the client as such (503), no fault of the deployment.
        if (error instanceof PoolsClosedError) throw new RequestEndedError('shutting_down');
        if (refusesRequest(error)) {
          // Nothing was sent either: not an attempt, and the next deployment may take the request.
          ctx.attempts -= 1;
          previous = previousCalled;
          refusal ??= { error, deployment };
          break;
        }
        if (!(error instanceof UpstreamError)) throw error;
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
        health.failure(
          deployment,
          performance.now() - started,
          statusSeen(error),
          error.message,
          blamed,
          unavailableMs,
        );
        // The upstream's failures, not the caller's: a request the provider refused as malformed is not one.
        if (blamed)
          ctx.services.metrics.upstreamFailure(
            modelMetricLabel(ctx),
            'before_answer',
            deploymentMetricLabel(ctx),
            upstreamFailureReason(error),
          );
        last = error;
        failedOn = deployment;
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
  if (last === undefined) {
    // Every deployment refused the request before calling: the first refusal, under the deployment that made it.
    ctx.deployment = refusal!.deployment;
    throw translateProviderError(refusal!.error);
  }
  // The answer is this failure: usage and traffic name the deployment that failed, not one that refused after it.
  ctx.deployment = failedOn;
  if (!cutByDeadline) throw upstreamFailure(last, ctx.attempts);
  // Given up before the deadline passed, for a wait that would outlast it: the upstream's failure is
  // the answer, not a timeout that has not happened.
  if (performance.now() < endsAt) throw upstreamFailure(last, ctx.attempts, deadlineMs);
  throw deadlineExceeded(ctx, deadlineMs!);
}

/**
 * Counts a retry, or a fallback from `previous` (the last deployment called), once the call went out:
 * a deployment whose translation refused the request was never called, so the fallback is counted
 * once, by the deployment that is.
 */
function countMove(ctx: RequestContext, retry: number, previous: Deployment | undefined): void {
  const { metrics, registry } = ctx.services;
  if (retry > 0) metrics.upstreamRetry(modelMetricLabel(ctx), deploymentMetricLabel(ctx));
  else if (previous !== undefined) metrics.upstreamFallback(modelMetricLabel(ctx), deploymentLabel(previous, registry));
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
  ctx.services.metrics.upstreamFailure(modelMetricLabel(ctx), 'before_answer', deploymentMetricLabel(ctx), 'timeout');
}

/** The share of a deployment's timeout after which a client leaving counts as the deployment timing out. */
const ABANDONED_TIMEOUT_SHARE = 0.9;

/**
 * Records a call its client left (or the shutdown cut) before it ended. It says nothing about the
 * deployment, and is counted only among its requests, unless the upstream had been silent for nearly the
 * deployment's whole `timeout_ms` by then (`silentMs`: since the request went out or its headers came,
 * or, mid-stream, since its last frame): then it is a timeout of the deployment. The SDKs give up after
 * 600 s, the default timeout: every client left just before the gateway would have called it a timeout,
 * so a deployment that takes requests and never answers (or stops mid-stream) was never cooled down.
 */
function leftByClient(
  ctx: RequestContext,
  deployment: Deployment,
  silentMs: number,
  phase: 'before_answer' | 'mid_stream',
): void {
  const { health, metrics, registry } = ctx.services;
  if (deployment.timeoutMs <= 0 || silentMs < deployment.timeoutMs * ABANDONED_TIMEOUT_SHARE) {
    health.abandoned(deployment);
    return;
  }
  const waited = Math.round(silentMs);
  const what = phase === 'mid_stream' ? `no stream data for ${waited} ms` : `no answer after ${waited} ms`;
  // Mid-stream its 200 had come: the status seen, as for any failure of a started stream.
  const status = phase === 'mid_stream' ? 200 : 0;
  health.failure(deployment, silentMs, status, `${what}, when the client left (timeout_ms is ${deployment.timeoutMs})`);
  metrics.upstreamFailure(modelMetricLabel(ctx), phase, deploymentLabel(deployment, registry), 'timeout');
}

/**
 * Whether a deployment's translation refused the request before calling (a parameter, or an operation,
 * its provider has no equivalent for): another deployment of the model may take it.
 */
function refusesRequest(error: unknown): error is TranslationError | UnsupportedOperationError {
  return error instanceof TranslationError || error instanceof UnsupportedOperationError;
}

/**
 * The HTTP status the deployment answered with: a stream's error event (or a failed Response) came in
 * a 200, whatever status the error's type stands for.
 */
function statusSeen(error: UpstreamError): number {
  return error.inStream ? 200 : error.status;
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
 * stage): a failure after its start (a dropped connection, a timeout mid-stream, a malformed frame, an
 * error event) is the deployment's like any failure before it, so a deployment whose streams keep
 * breaking cools down. A stream its client left (or the shutdown cut) is no success: a hung stream
 * that clients give up on must not end its cooldown; it is neutral, or a timeout when the upstream had
 * been silent for nearly its whole `timeout_ms` (see leftByClient).
 */
export function settleStreamHealth(ctx: RequestContext): void {
  const relayed = ctx.relayedStream;
  if (relayed === undefined) return;
  ctx.relayedStream = undefined;
  const stream = ctx.answer?.kind === 'stream' ? ctx.answer : undefined;
  const failure = stream?.error();
  const { health } = ctx.services;
  if (failure === undefined) {
    if (ctx.watch.aborted) leftByClient(ctx, relayed.deployment, stream?.silentMs?.() ?? 0, 'mid_stream');
    else health.success(relayed.deployment, relayed.latencyMs);
  } else {
    const status = statusSeen(failure);
    health.failure(relayed.deployment, relayed.latencyMs, status, failure.message, blamesDeployment(failure));
    ctx.services.metrics.upstreamFailure(
      modelMetricLabel(ctx),
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
  if (kind === 'stream') metrics.timeToFirstToken.observe(modelMetricLabel(ctx), (answeredAt - ctx.startedAt) / 1000);
  else metrics.observeUpstream(modelMetricLabel(ctx), deploymentMetricLabel(ctx), latencyMs / 1000);
}

/** The request's model as the upstream metrics' label. */
function modelMetricLabel(ctx: RequestContext): string {
  return modelLabel(ctx.model, ctx.services.registry);
}

/** The attempt's deployment as the upstream metrics' label. */
function deploymentMetricLabel(ctx: RequestContext): string {
  return deploymentLabel(ctx.deployment, ctx.services.registry);
}

/** Why a call was cut: the client's leaving, or the gateway's shutdown (which aborts the watch too). */
function endedBy(signal: ClientWatch): RequestEndedError {
  return new RequestEndedError(signal.shuttingDown ? 'shutting_down' : 'client_left');
}
