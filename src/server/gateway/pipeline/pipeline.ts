import type {
  FastifyContextConfig,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuditEntry } from '../accounting/usage-entry.js';
import type { ProviderAnswer } from '../providers/answer.js';
import type { Deployment } from '../providers/types.js';
import { failureForTraffic, redactForRecords } from '../guardrails/pii/failure-redaction.js';
import { screenAnswer } from '../guardrails/policy/answer-policy.js';
import { jsonBody } from '../traffic/traffic-log.js';
import { LOOP_MARK_HEADER } from '../providers/upstream-pools.js';
import { AppError, forbidden } from '../../http/errors.js';
import { SHUTTING_DOWN_MESSAGE } from '../formats/stream-error.js';
import { ClientWatch } from './client-connection.js';
import type { GatewayServices } from './gateway-services.js';
import { contextOf, type Endpoint, type RequestContext } from './request-context.js';
import { authenticate } from './stages/authenticate.js';
import { finishRequest, usageEntry } from './stages/finish.js';
import { admittedHeaders, respond } from './stages/respond.js';
import { usableModel } from './stages/resolve-model.js';
import { RequestEndedError } from './stages/request-ended-error.js';
import { requestDeadlineMs } from './stages/request-deadline.js';
import { route } from './stages/route-deployment.js';

/**
 * The gateway's one request pipeline. Every /v1 inference endpoint runs the same stages, in this order:
 *
 *  1. begin          on arrival: the request's context, and the watch that finishes it when it closes
 *  2. authenticate   on arrival, before the body is read: the key and the endpoint's scope
 *     (Fastify then parses and validates the body against the endpoint's schema)
 *  3. resolve model  the endpoint's rule: alias, allow-list, the key's models, token caps
 *  4. policy         the installed slots: rateLimit, contentPolicy, piiScrub, rag, cacheLookup
 *  5. route          deployments in weighted order; retries with backoff, then fallback
 *  6. provider call  the endpoint's call, on the deployment the route stage chose
 *  7. durable usage  the endpoints that must commit usage before answering (embeddings)
 *  8. respond        PII restore (the output slot), then the JSON answer or the relayed stream; the content
 *                    policy's answer patterns read both as the client gets them (a whole answer before the cache)
 *  9. finish         once, when the response closes: usage row, metrics, traffic event, key use
 *
 * A stage is a function of the request's context; it may end the request with a typed error (the
 * error handler answers it, and finish still accounts it). An endpoint supplies only what differs:
 * its model rule, its provider call and the frame that reports a failure inside a started stream.
 */
export interface InferenceEndpoint {
  readonly endpoint: Exclude<Endpoint, 'models' | 'rag_collections' | 'stored_responses'>;
  readonly path: string;
  /** Stage 3: resolves and rewrites `ctx.model` and the body. */
  resolveModel(ctx: RequestContext): void;
  /** Stage 6: the provider call on one deployment. */
  call(ctx: RequestContext, deployment: Deployment): Promise<ProviderAnswer>;
  /** What ends a stream that failed after it started, in the endpoint's format. */
  errorFrame(message: string): string;
  /** Stage 7: the audit event committed with the usage row before the answer, for endpoints that need it. */
  durableAudit?(ctx: RequestContext): AuditEntry;
  /**
   * Stage 4: false for an endpoint whose answer is not a conversation (a token count): a policy stage's
   * own answer (a cache hit) would be the wrong kind, so it is passed over and the provider called.
   * The stages' refusals and rewrites (PII scrubbing, RAG context) apply as everywhere.
   */
  readonly takesStageAnswers?: false;
}

/**
 * Stages 1 and 2 as the route's onRequest hook, before the body is parsed (a caller without a valid
 * key learns nothing from validation errors). Callback style: an async hook costs a promise per request.
 */
export function beginPipeline(endpoint: Endpoint, path: string, services: GatewayServices): onRequestHookHandler {
  return (request, reply, done) => {
    const ctx: RequestContext = {
      services,
      requestId: request.id,
      endpoint,
      method: request.method,
      path,
      headers: request.headers,
      startedAt: performance.now(),
      startedAtMs: Date.now(),
      watch: new ClientWatch(reply.raw, (completed) => {
        try {
          finishRequest(ctx, reply.raw.statusCode, completed);
        } finally {
          services.inFlight.end(ctx.watch);
        }
      }),
      body: {},
      attempts: 0,
      upstreamPending: false,
      upstreamRequestId: undefined,
      stream: false,
      cached: false,
      committed: false,
      admitted: false,
    };
    services.inFlight.begin(ctx.watch);
    request.gatewayRequest = ctx;
    const tracing = services.tracing;
    if (tracing !== undefined)
      ctx.trace = tracing.begin({
        requestId: ctx.requestId,
        endpoint,
        method: ctx.method,
        path,
        traceparent: request.headers.traceparent,
        tracestate: request.headers.tracestate,
        incoming: request.raw,
      });
    // The caller's way from an answer to its trace (W3C Trace Context Level 2); only when tracing is on.
    if (ctx.trace !== undefined) reply.header('traceresponse', ctx.trace.traceresponse);
    // Which routing and policy settings answered: on every answer, so a client can tell a change.
    reply.header('x-gateway-policy-version', services.guardrails.policyVersion(services.registry.policyVersion()));
    try {
      if (request.headers[LOOP_MARK_HEADER] === services.pools.loopMark) throw requestLoop(request.headers.host);
      if (ctx.trace === undefined) authenticate(ctx);
      else ctx.trace.run('gateway.authenticate', () => authenticate(ctx));
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    done();
  };
}

/**
 * A request the gateway sent to itself: a provider's or deployment's base URL points back at it (an
 * OPENAI_BASE_URL exported for the SDKs, read by the gateway too). Refused at once, so the loop ends
 * after one turn rather than recursing until the connection limit; a 403, which the calling turn reads
 * as that deployment's fault: not retried, its other deployments tried, the looped one cooled down.
 */
function requestLoop(host: string | undefined): AppError {
  return forbidden(
    `request loop: this gateway sent this request to itself (at ${host ?? 'its own address'}); a provider's or deployment's base_url points at the gateway, not at the provider`,
  );
}

/** A request whose wait for its answer the gateway's shutdown ended: 503, in the shared error shape. */
export function gatewayShuttingDown(): AppError {
  return new AppError('service_unavailable', SHUTTING_DOWN_MESSAGE);
}

/** What the pipeline changed in the client's body, shown in the traffic view as the forwarded body. */
function forwardedPatch(body: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = { model: body.model };
  if (body.max_tokens != null) patch.max_tokens = body.max_tokens;
  if (body.max_completion_tokens != null) patch.max_completion_tokens = body.max_completion_tokens;
  return patch;
}

/**
 * The body the traffic view shows as forwarded: the stages' rewrite when they rewrote it (scrubbed:
 * it must never show an original PII value), else the client's own text with the routed model and caps.
 */
export function noteForwardedBody(ctx: RequestContext, rawBody: string | null): void {
  if (ctx.bodyRewritten) ctx.forwardedBody = jsonBody(JSON.stringify(ctx.body));
  else if (rawBody !== null) ctx.forwardedBody = jsonBody(rawBody, forwardedPatch(ctx.body));
}

/** Stages 3 to 8 as the route's handler. */
export function runPipeline(spec: InferenceEndpoint): RouteHandlerMethod {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(request);
    ctx.body = request.body as Record<string, unknown>;
    // Read before any stage: a deadline that cannot be read is refused even when a stage would answer.
    const deadlineMs = requestDeadlineMs(ctx.headers, ctx.services.config.gateway.request_timeout_ms);
    const trace = ctx.trace;
    if (trace === undefined) spec.resolveModel(ctx);
    else trace.run('gateway.resolve_model', () => spec.resolveModel(ctx));
    const policy = ctx.services.policy;
    for (let index = 0; index < policy.length; index += 1) {
      const stage = policy[index]!;
      const result = trace === undefined ? stage(ctx) : trace.runPolicy(ctx.services.policyNames[index]!, ctx, stage);
      // A synchronous stage's result is used as it is: awaiting it would still cost a microtask turn.
      const own = result instanceof Promise ? await result : result;
      if (own !== undefined && spec.takesStageAnswers !== false) {
        // The traffic view shows the body as it would have been routed, and the stage's own answer
        // (a cache hit) is committed like a provider's where the endpoint demands it.
        noteForwardedBody(ctx, request.rawBody);
        if (spec.durableAudit !== undefined) commitBeforeAnswer(ctx, spec.durableAudit, own);
        return respond(ctx, reply, screenAnswer(ctx, own), spec.errorFrame);
      }
    }
    noteForwardedBody(ctx, request.rawBody);
    let answer: ProviderAnswer;
    try {
      const call = (deployment: Deployment): Promise<ProviderAnswer> => spec.call(ctx, deployment);
      answer = await (trace === undefined
        ? route(ctx, call, deadlineMs)
        : trace.run('gateway.route', () => route(ctx, call, deadlineMs)));
    } catch (error) {
      // A failure is not shared: identical requests waiting for this one's answer call the provider themselves.
      ctx.services.cache.release(ctx);
      if (error instanceof RequestEndedError) {
        // Cancelled by the gateway's shutdown: the client is still there, and is told why.
        if (error.reason === 'shutting_down') throw gatewayShuttingDown();
        // Nobody is left to answer; the watch already finished the request as the client's leaving.
        return reply.hijack();
      }
      admittedHeaders(ctx, reply);
      throw error;
    }
    // A provider that answered after the client left: the watch already finished the request as 499,
    // and nothing may be accounted or committed for it a second time. One that answered as the
    // shutdown began still goes to its client, who is there.
    if (ctx.watch.aborted && !ctx.watch.shuttingDown) return reply.hijack();
    // Before the cache sees it: an answer the content policy stopped says so in its format, and is not kept.
    answer = screenAnswer(ctx, answer);
    if (ctx.cache?.key !== undefined) answer = ctx.services.cache.capture(ctx, answer);
    if (spec.durableAudit !== undefined) commitBeforeAnswer(ctx, spec.durableAudit, answer);
    return respond(ctx, reply, answer, spec.errorFrame);
  };
}

/** Stage 7: the usage row and audit event, written durably before the answer goes out. */
function commitBeforeAnswer(
  ctx: RequestContext,
  audit: (ctx: RequestContext) => AuditEntry,
  answer: ProviderAnswer,
): void {
  ctx.answer = answer;
  ctx.services.recorder.commitNow(usageEntry(ctx, 200), audit(ctx));
  ctx.committed = true;
}

/**
 * Registers an inference endpoint: `POST <path>` with its body (and header) schema, stages 1 and 2
 * on arrival and the rest as its handler.
 */
export function postInference(
  app: FastifyInstance,
  endpoint: InferenceEndpoint,
  options: { readonly body: z.ZodType; readonly headers?: z.ZodType; readonly config?: FastifyContextConfig },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    endpoint.path,
    {
      schema: options.headers ? { body: options.body, headers: options.headers } : { body: options.body },
      ...(options.config ? { config: options.config } : {}),
      onRequest: beginPipeline(endpoint.endpoint, endpoint.path, app.gateway),
    },
    runPipeline(endpoint),
  );
}

/** The error type of a failed request, for the finishing stage (the error handler answers it). */
export function noteFailure(request: FastifyRequest, type: string, body: unknown): void {
  const ctx = request.gatewayRequest;
  if (ctx === null) return;
  // Before the error body's redaction, which looks the request's rules up by its model.
  if (ctx.requestedModel === undefined && ctx.principal !== undefined) noteRefusedRequest(ctx, request);
  ctx.errorType = type;
  ctx.responseBody = { kind: 'value', value: failureForTraffic(ctx, body) };
}

/**
 * A request refused before its model resolved (its body failed the endpoint's schema) whose body was
 * read and parsed: what it asked for is recorded as for any request, so "why did my client get a 400?"
 * has an answer. The name it gave is its `requested_model`, and its `model` (so its metrics label) when
 * the caller may use that model; its body goes to the traffic view, with the values the request's PII
 * rule finds redacted (no stage scrubbed it), and credentials hidden as in every body shown.
 */
function noteRefusedRequest(ctx: RequestContext, request: FastifyRequest): void {
  const parsed = request.body;
  if (request.rawBody === null || typeof parsed !== 'object' || parsed === null) return;
  const named = (parsed as { model?: unknown }).model;
  if (typeof named === 'string') {
    ctx.requestedModel = named;
    ctx.model = usableModel(ctx, named);
    // The body is shown under the rules of the model it names, even one this key may not use: a
    // per-model PII rule scrubs what was sent for that model, whatever else was wrong with it.
    const resolution = ctx.model === undefined ? ctx.services.registry.resolve(named) : undefined;
    if (resolution?.ok) ctx.rules = ctx.services.guardrails.forRequest(keyIdOf(ctx), resolution.model);
  }
  ctx.forwardedBody = jsonBody(redactForRecords(ctx, request.rawBody));
}

function keyIdOf(ctx: RequestContext): string | undefined {
  return ctx.principal?.kind === 'key' ? ctx.principal.key.row.id : undefined;
}
