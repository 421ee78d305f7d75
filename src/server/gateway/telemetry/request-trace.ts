import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type HrTime,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../http/errors.js';
import type { Usage } from '../formats/ir.js';
import type { Deployment } from '../providers/types.js';
import type { StreamAnswer } from '../providers/stream-result.js';
import { UpstreamError } from '../providers/upstream-error.js';
import type { Endpoint, RequestContext } from '../pipeline/request-context.js';
import type { PolicyStage } from '../pipeline/stages/policy-stages.js';
import { upstreamFailureReason } from '../metrics/upstream-failure-reason.js';
import { genAiOperation, responseAttributes, upstreamAttributes, usageAttributes } from './gen-ai-attributes.js';
import { isCallerFault, isFailedOutcome } from './caller-fault.js';
import { policyStageActed } from './policy-stage-activity.js';
import { StreamedAnswer } from './streamed-answer.js';
import { connectionAttributes } from './server-attributes.js';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

/** What a span records of a failure: its type only. Messages may quote the request, so they stay out. */
function errorType(error: unknown): string {
  if (error instanceof AppError) return error.type;
  if (error instanceof UpstreamError) {
    // One name for a lost connection, whether it went before the answer or mid-stream (where the
    // reader saw it as a broken stream), as `gateway_upstream_failures_total` counts both `connection`.
    if (upstreamFailureReason(error) === 'connection') return 'connection_error';
    return error.upstreamType ?? `upstream_${error.status}`;
  }
  return error instanceof Error ? error.name : 'error';
}

function fail(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** A stage's failure: marked as an error unless it is the caller's (a 4xx), which only says why. */
function failStage(span: Span, error: unknown): void {
  if (isCallerFault(error)) span.setAttribute('error.type', errorType(error));
  else fail(span, error);
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | undefined)?.then === 'function';
}

/** Milliseconds since the epoch as OpenTelemetry's `[seconds, nanoseconds]`. */
function hrTimeOf(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

/** What the request looked like, for the root span. */
export interface TracedRequest {
  readonly requestId: string;
  readonly endpoint: Endpoint;
  readonly method: string;
  readonly path: string;
  readonly traceparent: unknown;
  readonly tracestate: unknown;
  /** The request as Node received it, for the connection's attributes (scheme, addresses, user agent). */
  readonly incoming?: IncomingMessage;
}

/** The request's cost in US dollars: the GenAI conventions name none. */
const COST_USD = 'gatehouse.cost_usd';

/**
 * Who made the request, as trace backends join on it: `user.id` (the conventions' name, which Langfuse
 * reads as the trace's user) for the key's owner, `gatehouse.team` for its team. Names, never secrets.
 */
function principalAttributes(outcome: { readonly user?: string; readonly team?: string }): Attributes {
  const attributes: Attributes = {};
  if (outcome.user !== undefined) attributes['user.id'] = outcome.user;
  if (outcome.team !== undefined) attributes['gatehouse.team'] = outcome.team;
  return attributes;
}

/** The provider's own request id (OpenAI's `x-request-id`, Anthropic's `request-id`) on an upstream attempt's span. */
const UPSTREAM_REQUEST_ID = 'gatehouse.upstream.request_id';

/** The `reason` of `gateway_upstream_failures_total` that counted a failed attempt, so spans and metrics join. */
const UPSTREAM_FAILURE_REASON = 'gatehouse.upstream.failure_reason';

/** Seconds from an attempt's start to its stream's first chunk (the GenAI conventions' attribute). */
const TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';

/** An upstream attempt's failure: its type, and the metric's reason for it when the provider failed. */
function failAttempt(span: Span, error: unknown): void {
  fail(span, error);
  if (error instanceof UpstreamError) span.setAttribute(UPSTREAM_FAILURE_REASON, upstreamFailureReason(error));
}

/**
 * A policy stage running, whose span is made only once it is known to have acted on the request
 * (refused, answered, recorded attributes, or left its mark: see policyStageActed).
 */
interface PendingStage {
  readonly name: string;
  readonly start: HrTime;
  readonly acted: () => boolean;
  attributes: Attributes | undefined;
  /** False once its span was made or passed over (the request may end before the stage does). */
  open: boolean;
}

/**
 * The spans of one /v1 request: a server span for the whole request, a child per pipeline stage,
 * and a client span per upstream attempt (under the route stage's span). The pipeline runs one
 * stage at a time, so "the current parent" is a field rather than an async context.
 *
 * Every span is started and ended with times from one clock per request. Left to itself, the SDK
 * anchors each span on `Date.now()`, whole milliseconds, so a child could end up to a millisecond
 * after its parent in the exported times; and a stage still running when the request ends (its
 * client left) is ended with it, so no child outlives the server span.
 */
export class RequestTrace {
  readonly traceId: string;
  /** Whether the spans are recorded and exported (the sampler's decision), so a record may offer the trace id. */
  readonly recorded: boolean;
  readonly #tracer: Tracer;
  readonly #root: Span;
  #parent: Context;
  readonly #rootContext: Context;
  readonly #tracestate: string | undefined;
  /** The attempt in flight; `counting`: a token count, which uses no tokens to report; `start`: its `performance.now()`. */
  #upstream: { span: Span; deployment: Deployment; counting: boolean; start: number } | undefined;
  /** What the relayed stream's frames said of the answer, and the failure that ended it after its start. */
  #streamed: { answer: StreamedAnswer; failure: UpstreamError | undefined } | undefined;
  /** The policy stage running now, its span not made yet. */
  #policy: PendingStage | undefined;
  #respond: Span | undefined;
  readonly #stages = new Set<Span>();
  /** The stage running now, for what it records of itself (`stageAttributes`). */
  #stage: Span | undefined;
  /** `Date.now()` minus `performance.now()` as the request began: the epoch of every span's times. */
  readonly #epoch = Date.now() - performance.now();

  constructor(tracer: Tracer, request: TracedRequest) {
    this.#tracer = tracer;
    const caller = parseTraceparent(request.traceparent);
    const parent = caller === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, caller);
    this.#tracestate = caller !== undefined && typeof request.tracestate === 'string' ? request.tracestate : undefined;
    this.#root = tracer.startSpan(
      `${request.method} ${request.path}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': request.path,
          'url.path': request.path,
          'gatehouse.request_id': request.requestId,
          'gatehouse.endpoint': request.endpoint,
          ...(request.incoming === undefined ? {} : connectionAttributes(request.incoming)),
        },
        startTime: this.#now(),
      },
      parent,
    );
    this.#rootContext = trace.setSpan(parent, this.#root);
    this.#parent = this.#rootContext;
    this.traceId = this.#root.spanContext().traceId;
    this.recorded = this.#root.isRecording();
  }

  /**
   * The W3C Trace Context Level 2 `traceresponse` header of the server span (`00-<trace id>-<span id>-<flags>`):
   * the caller learns which trace its request is in, and from the flags whether it was recorded.
   */
  get traceresponse(): string {
    return formatTraceparent(this.#root.spanContext());
  }

  #now(): HrTime {
    return hrTimeOf(this.#epoch + performance.now());
  }

  /**
   * Runs one stage in its own child span (sync or async); a throw records its error type, marks the
   * span failed unless the caller was at fault (a 4xx), and passes on.
   */
  run<T>(name: string, stage: () => T): T {
    const span = this.#tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: this.#now() }, this.#rootContext);
    this.#stages.add(span);
    const outer = this.#parent;
    const outerStage = this.#stage;
    this.#parent = trace.setSpan(this.#rootContext, span);
    this.#stage = span;
    const done = (): void => {
      this.#parent = outer;
      this.#stage = outerStage;
      // Already ended with the request when it finished first.
      if (this.#stages.delete(span)) span.end(this.#now());
    };
    let result: T;
    try {
      result = stage();
    } catch (error) {
      failStage(span, error);
      done();
      throw error;
    }
    if (!isPromise(result)) {
      done();
      return result;
    }
    return result.then(
      (value) => {
        done();
        return value;
      },
      (error: unknown) => {
        failStage(span, error);
        done();
        throw error;
      },
    ) as T;
  }

  /**
   * Runs one policy stage (sync or async, its result as it is) and makes its span only when it acted on
   * the request: a stage that is off, or not for this key or model, costs no span.
   */
  runPolicy(name: string, ctx: RequestContext, stage: PolicyStage): ReturnType<PolicyStage> {
    const pending: PendingStage = {
      name,
      start: this.#now(),
      acted: () => policyStageActed(name, ctx),
      attributes: undefined,
      open: true,
    };
    this.#policy = pending;
    const settle = (answered: boolean, error?: unknown): void => {
      if (this.#policy === pending) this.#policy = undefined;
      this.#settlePolicy(pending, this.#now(), answered, error);
    };
    let result: ReturnType<PolicyStage>;
    try {
      result = stage(ctx);
    } catch (error) {
      settle(false, error);
      throw error;
    }
    if (!isPromise(result)) {
      settle(result !== undefined);
      return result;
    }
    return result.then(
      (answer) => {
        settle(answer !== undefined);
        return answer;
      },
      (error: unknown) => {
        settle(false, error);
        throw error;
      },
    );
  }

  /** Makes the span of a policy stage that acted, from its start to `end`; passes over one that did not. */
  #settlePolicy(pending: PendingStage, end: HrTime, answered: boolean, error?: unknown): void {
    if (!pending.open) return;
    pending.open = false;
    if (error === undefined && !answered && pending.attributes === undefined && !pending.acted()) return;
    const span = this.#tracer.startSpan(
      pending.name,
      { kind: SpanKind.INTERNAL, startTime: pending.start, attributes: pending.attributes },
      this.#rootContext,
    );
    if (error !== undefined) failStage(span, error);
    span.end(end);
  }

  /** Records what the running stage did (counts, names, never request text) on its span. */
  stageAttributes(attributes: Attributes): void {
    const pending = this.#policy;
    if (pending !== undefined) pending.attributes = { ...pending.attributes, ...attributes };
    else this.#stage?.setAttributes(attributes);
  }

  /**
   * Starts the client span of one upstream attempt and returns the `traceparent` (and the caller's
   * `tracestate`) that carry it to the upstream.
   */
  startAttempt(
    endpoint: Endpoint,
    deployment: Deployment,
    body: Record<string, unknown>,
    attempt: number,
  ): Readonly<Record<string, string>> {
    const attributes = upstreamAttributes(endpoint, deployment, body, attempt);
    const span = this.#tracer.startSpan(
      `${genAiOperation(endpoint)} ${String(attributes['gen_ai.request.model'])}`,
      { kind: SpanKind.CLIENT, attributes, startTime: this.#now() },
      this.#parent,
    );
    this.#upstream = { span, deployment, counting: endpoint === 'count_tokens', start: performance.now() };
    const headers: Record<string, string> = { traceparent: formatTraceparent(span.spanContext()) };
    if (this.#tracestate !== undefined) headers.tracestate = this.#tracestate;
    return headers;
  }

  /**
   * Ends the current attempt's span as failed (the route stage retries or falls back), with the
   * provider's id for the call: the error's, or `answeredId` of a 2xx that failed afterwards.
   */
  attemptFailed(error: unknown, answeredId?: string): void {
    const upstream = this.#upstream;
    if (upstream === undefined) return;
    if (error instanceof UpstreamError && error.status > 0)
      upstream.span.setAttribute('http.response.status_code', error.status);
    const requestId = (error instanceof UpstreamError ? error.requestId : undefined) ?? answeredId;
    if (requestId !== undefined) upstream.span.setAttribute(UPSTREAM_REQUEST_ID, requestId);
    failAttempt(upstream.span, error);
    upstream.span.end(this.#now());
    this.#upstream = undefined;
  }

  /** Records on the current attempt's span the provider's id for an answered call. */
  attemptIdentified(upstreamRequestId: string | undefined): void {
    if (upstreamRequestId !== undefined) this.#upstream?.span.setAttribute(UPSTREAM_REQUEST_ID, upstreamRequestId);
  }

  /**
   * Ends the current attempt's span with a whole JSON answer's usage, id and finish reasons (`body`, the
   * answer as the client gets it), as the route stage ends: the upstream call is over once its answer
   * is read. A stream's span stays open until its last frame.
   */
  attemptAnswered(usage: Usage | undefined, body?: object): void {
    const upstream = this.#upstream;
    if (upstream === undefined) return;
    upstream.span.setAttributes(usageAttributes(upstream.deployment, upstream.counting ? undefined : usage));
    if (body !== undefined) upstream.span.setAttributes(responseAttributes(body));
    upstream.span.end(this.#now());
    this.#upstream = undefined;
  }

  /** Records on the current attempt's span that its stream started: the time to its first chunk. */
  attemptStreaming(): void {
    const upstream = this.#upstream;
    if (upstream !== undefined)
      upstream.span.setAttribute(TIME_TO_FIRST_CHUNK, (performance.now() - upstream.start) / 1000);
  }

  /**
   * The frames of a provider's stream as the respond stage relays them, read on their way for the
   * answer's id and finish reasons and, once they end, the failure that cut them, for the attempt's span.
   * A stream no attempt is open for (a replay from the cache) is handed back as it is.
   */
  watchStream(answer: StreamAnswer): AsyncIterable<string> {
    if (this.#upstream === undefined) return answer.events;
    const streamed = { answer: new StreamedAnswer(), failure: undefined as UpstreamError | undefined };
    this.#streamed = streamed;
    return (async function* read(): AsyncGenerator<string> {
      for await (const frame of answer.events) {
        streamed.answer.read(frame);
        yield frame;
      }
      streamed.failure = answer.error();
    })();
  }

  /** Opens the respond stage's span; it ends with the response (a stream's last frame). */
  startRespond(): void {
    this.#respond ??= this.#tracer.startSpan(
      'gateway.respond',
      { kind: SpanKind.INTERNAL, startTime: this.#now() },
      this.#rootContext,
    );
  }

  /** Marks the request's answer as stopped by the content policy: the pattern, never the text it matched. */
  answerStopped(pattern: string): void {
    this.#root.setAttribute('gatehouse.content_policy.answer_stopped', pattern);
  }

  /** Ends every open span with the request's outcome: the answered attempt's usage, the status, the cache's part. */
  finish(outcome: {
    readonly status: number;
    readonly errorType: string | undefined;
    readonly usage: Usage | undefined;
    readonly model: string | undefined;
    /** Undefined when the cache did not apply to the request (as `x-cache-hit` is then absent). */
    readonly cached: boolean | undefined;
    /** The id of the gateway key that made the request (never its secret), when one did. */
    readonly keyId?: string;
    /** The key's owner and team, as the key records them, when it has them. */
    readonly user?: string;
    readonly team?: string;
    /** What the request cost by the configured prices (0 for a cache hit or an unpriced model). */
    readonly costUsd?: number;
  }): void {
    const end = this.#now();
    const failed = isFailedOutcome(outcome.status, outcome.errorType);
    for (const stage of this.#stages) stage.end(end);
    this.#stages.clear();
    // A policy stage its client left in the middle of (a RAG retrieval, a wait for an identical answer).
    if (this.#policy !== undefined) this.#settlePolicy(this.#policy, end, false);
    this.#policy = undefined;
    const upstream = this.#upstream;
    if (upstream !== undefined) {
      upstream.span.setAttributes(usageAttributes(upstream.deployment, upstream.counting ? undefined : outcome.usage));
      const streamed = this.#streamed;
      if (streamed !== undefined) upstream.span.setAttributes(streamed.answer.attributes());
      // The provider's failure mid-stream, named as one before the answer would be (the request's own
      // type, upstream_error, says only that a started stream failed).
      if (streamed?.failure !== undefined) failAttempt(upstream.span, streamed.failure);
      else {
        if (outcome.errorType !== undefined) upstream.span.setAttribute('error.type', outcome.errorType);
        if (failed) upstream.span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorType });
      }
      upstream.span.end(end);
      this.#upstream = undefined;
    }
    if (this.#respond !== undefined) {
      if (outcome.errorType !== undefined) this.#respond.setAttribute('error.type', outcome.errorType);
      if (outcome.errorType === 'upstream_error')
        this.#respond.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorType });
      this.#respond.end(end);
    }
    const root = this.#root;
    root.setAttribute('http.response.status_code', outcome.status);
    if (outcome.cached !== undefined) root.setAttribute('gatehouse.cache.hit', outcome.cached);
    if (outcome.model !== undefined) root.setAttribute('gatehouse.model', outcome.model);
    if (outcome.keyId !== undefined) root.setAttribute('gatehouse.key_id', outcome.keyId);
    root.setAttributes(principalAttributes(outcome));
    // Only what the request was charged: an unpriced model's 0 would read as free.
    if (outcome.costUsd !== undefined && outcome.costUsd > 0) root.setAttribute(COST_USD, outcome.costUsd);
    if (outcome.errorType !== undefined) root.setAttribute('error.type', outcome.errorType);
    // A 4xx is the caller's mistake and leaves the status unset; a stream that failed after its 200
    // (error type upstream_error) failed as surely as a 502.
    if (failed) root.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorType });
    root.end(end);
  }
}
