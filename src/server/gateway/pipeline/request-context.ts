import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { CacheState } from '../cache/cache-state.js';
import type { Usage } from '../formats/ir.js';
import type { AuthenticatedKey } from '../keys/keys.service.js';
import type { Reservation } from '../limits/limiter.js';
import type { ParallelSlots } from '../limits/parallel-requests.js';
import type { PromptTokens } from '../limits/prompt-tokens.js';
import type { ProviderAnswer } from '../providers/answer.js';
import type { Deployment } from '../providers/types.js';
import type { RagOutcome } from '../rag/rag-stage.js';
import type { RequestTrace } from '../telemetry/request-trace.js';
import type { StoredBody } from '../traffic/traffic-log.js';
import type { GuardrailsOutcome } from '../../../shared/guardrails-api.js';
import type { PiiRequestState } from '../guardrails/pii/pii-stages.js';
import type { AnswerPolicyState } from '../guardrails/policy/answer-policy.js';
import type { RequestRules } from '../guardrails/rules.js';
import type { ClientWatch } from './client-connection.js';
import type { GatewayServices } from './gateway-services.js';

/** The /v1 endpoints the pipeline serves (`stored_responses`: reading and deleting kept Responses). */
export type Endpoint =
  'chat' | 'messages' | 'count_tokens' | 'responses' | 'stored_responses' | 'embeddings' | 'models' | 'rag_collections';

/** Who is calling: an issued key, or (embeddings with `allow_passthrough_keys`) the caller's own provider key. */
export type Principal =
  | { readonly kind: 'key'; readonly key: AuthenticatedKey }
  | { readonly kind: 'passthrough'; readonly providerKey: string };

/**
 * Everything one /v1 request accumulates on its way through the stages; the finishing stage turns
 * it into a usage row, metrics and a traffic event. Mutable by design: each stage fills its part.
 */
export interface RequestContext {
  readonly services: GatewayServices;
  readonly requestId: string;
  readonly endpoint: Endpoint;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** `performance.now()` at arrival, for latency. */
  readonly startedAt: number;
  /** Wall clock at arrival, for rows and events. */
  readonly startedAtMs: number;
  /**
   * Watches the client's connection: aborts when the client disconnects before the answer is complete,
   * or the gateway's shutdown ends the request (cancels the upstream call). Not an AbortSignal.
   */
  readonly watch: ClientWatch;
  /** The validated request body (stages may rewrite it: model, caps, scrubbed text). */
  body: Record<string, unknown>;
  principal?: Principal;
  /** The model name as the client sent it. */
  requestedModel?: string;
  /** The canonical model after alias rewrite and allow-list. */
  model?: string;
  deployment?: Deployment;
  /**
   * The deployment whose stream is being relayed and its time to first frame: its health is recorded
   * when the stream ends, since it may still fail (see settleStreamHealth).
   */
  relayedStream?: { readonly deployment: Deployment; readonly latencyMs: number };
  /** Upstream calls made (retries and fallbacks included). */
  attempts: number;
  /** A provider call is under way (sent, not yet answered or failed). */
  upstreamPending: boolean;
  /** The answering provider's own id for the call, once it answered 2xx (see UpstreamReport). */
  upstreamRequestId?: string;
  stream: boolean;
  cached: boolean;
  /** The answer being sent; its usage is read when the request finishes (a stream's grows as it runs). */
  answer?: ProviderAnswer;
  /** Usage of an answer that did not come from a provider call (a policy stage's own answer). */
  usage?: Usage;
  /** The error type answered, when the request failed (also for errors inside a started stream). */
  errorType?: string;
  /** The body as forwarded upstream, for the traffic view. */
  forwardedBody?: StoredBody;
  /** The answer as sent, for the traffic view. */
  responseBody?: StoredBody;
  /** A stream's frames as sent so far, for the traffic view when the client leaves before its end. */
  transcript?: { readonly frames: string[]; truncated: boolean };
  /** The usage row was already written durably (embeddings). */
  committed: boolean;
  /** A policy stage rewrote the body's texts (PII scrubbing): the traffic view shows the body as forwarded. */
  bodyRewritten?: boolean;
  /** The PII and content-policy rules for this request's key and model, once looked up. */
  rules?: RequestRules;
  /** What the PII and content-policy stages did (counts and reasons, never a value found). */
  guardrails?: GuardrailsOutcome;
  /** Placeholders to restore in the answer (PII mask mode), for the output stage. */
  pii?: PiiRequestState;
  /** The answer patterns to check the answer against (content policy), for the respond stage. */
  answerPolicy?: AnswerPolicyState;
  /** The request passed the limits stage (its usage row says so, for rebuilding the limits at start). */
  admitted: boolean;
  /** What the limits stage took from the request's limits, settled with the real usage at the finish. */
  reservation?: Reservation;
  /** The caps on requests in flight this request holds a slot under, given back once when it finishes. */
  parallelSlots?: ParallelSlots;
  /**
   * Which deployment the route stage tries first when it is ready: one that holds what the request
   * refers to (a continued Response's items, kept by the project that issued them). Most have none.
   */
  firstChoice?: (deployment: Deployment) => boolean;
  /** The prompt's tokens as the limits stage counted them. */
  promptTokens?: PromptTokens;
  /** Headers a successful answer carries (the limits' `x-ratelimit-*`). */
  replyHeaders?: Record<string, string>;
  /** What the RAG stage retrieved for this request (the answer's header and the traffic record say it). */
  rag?: RagOutcome;
  /** Set when the response cache applies to the request (its entry, time to live); `cached` says whether it answered. */
  cache?: CacheState;
  /** The request's spans, when tracing is on. */
  trace?: RequestTrace;
  /** Trace context for the upstream attempt under way (`traceparent`, `tracestate`), when tracing is on. */
  traceHeaders?: Readonly<Record<string, string>>;
}

/** Status for requests whose client disconnected before the answer (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

declare module 'fastify' {
  interface FastifyRequest {
    /** The pipeline context of a /v1 request (null elsewhere). */
    gatewayRequest: RequestContext | null;
  }
}

/** The request's pipeline context (created when the request arrives). */
export function contextOf(request: FastifyRequest): RequestContext {
  const ctx = request.gatewayRequest;
  if (!ctx) throw new Error('gateway request context missing: route registered outside the pipeline');
  return ctx;
}

/** The usage of a request so far: its answer's (final once a stream ended), or a stage's own. */
export function usageOf(ctx: RequestContext): Usage | undefined {
  const answer = ctx.answer;
  if (answer === undefined) return ctx.usage;
  return answer.kind === 'json' ? answer.usage : answer.usage();
}
