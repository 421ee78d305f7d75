import type { FastifyRequest } from 'fastify';
import type { Usage } from '../formats/ir.js';
import type { AuthenticatedKey } from '../keys/keys.service.js';
import type { StoredBody } from '../traffic/traffic-log.js';
import type { GatewayDeployment } from '../model-registry/deployment.js';

/** The /v1 endpoints the pipeline serves. */
export type Endpoint = 'chat' | 'messages' | 'embeddings' | 'models';

/** Who is calling: an issued key, or (embeddings with `allow_passthrough_keys`) the caller's own provider key. */
export type Principal =
  | { readonly kind: 'key'; readonly key: AuthenticatedKey }
  | { readonly kind: 'passthrough'; readonly providerKey: string };

/**
 * Everything one /v1 request accumulates on its way through the stages; the finishing stage turns
 * it into a usage row, metrics and a traffic event. Mutable by design: each stage fills its part.
 */
export interface RequestContext {
  readonly requestId: string;
  readonly endpoint: Endpoint;
  readonly method: string;
  readonly path: string;
  /** `performance.now()` at arrival, for latency. */
  readonly startedAt: number;
  /** Wall clock at arrival, for rows and events. */
  readonly startedAtMs: number;
  principal?: Principal;
  /** The model name as the client sent it. */
  requestedModel?: string;
  /** The canonical model after alias rewrite and allow-list. */
  model?: string;
  deployment?: GatewayDeployment;
  /** Upstream calls made (fallbacks included). */
  attempts: number;
  stream: boolean;
  cached: boolean;
  usage?: Usage;
  /** The error type answered, when the request failed (also for errors inside a started stream). */
  errorType?: string;
  /** The status to account when the reply's own status does not tell (a client that went away: 499). */
  statusOverride?: number;
  /** The body as forwarded upstream, for the traffic view. */
  forwardedBody?: StoredBody;
  /** The answer as sent, for the traffic view. */
  responseBody?: StoredBody;
  /** The usage row was already written durably (embeddings). */
  committed: boolean;
  /** Accounting is done; later hooks must not count the request again. */
  finished: boolean;
}

/** A fresh context for a request. */
export function newRequestContext(requestId: string, endpoint: Endpoint, method: string, path: string): RequestContext {
  return {
    requestId,
    endpoint,
    method,
    path,
    startedAt: performance.now(),
    startedAtMs: Date.now(),
    attempts: 0,
    stream: false,
    cached: false,
    committed: false,
    finished: false,
  };
}

/** Status for requests whose client disconnected before the answer (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

declare module 'fastify' {
  interface FastifyRequest {
    /** The pipeline context of a /v1 request (null elsewhere). */
    gatewayRequest: RequestContext | null;
    /** The request body as received (JSON text), kept for the traffic view. */
    rawBody: string | null;
  }
}

/** The request's pipeline context (created by the /v1 onRequest hook). */
export function contextOf(request: FastifyRequest): RequestContext {
  const ctx = request.gatewayRequest;
  if (!ctx) throw new Error('gateway request context missing: route registered outside the /v1 plugin');
  return ctx;
}
