import type { ClientFormat } from '../formats/codec.js';
import type { EmbeddingsBody, EmbeddingsResponse } from '../formats/embeddings/embeddings-schema.js';
import type { IrRequest, IrResponse, IrStreamEvent, Usage } from '../formats/ir.js';
import type { SseEvent } from '../formats/sse.js';
import type { UpstreamPools } from './upstream-pools.js';

/**
 * One upstream serving a public model name: the provider layer's and the router's view alike. The
 * model registry resolves configured and derived deployments into this shape.
 */
export interface Deployment {
  readonly id: string;
  /** The public (canonical) model name clients use. */
  readonly model: string;
  /** `openai`, `anthropic`, `demo`, or another OpenAI-compatible provider (`ollama`, `vllm`, ...). */
  readonly provider: string;
  /** The model name the upstream knows (a leading `<provider>/` is stripped). */
  readonly upstreamModel: string;
  /** Overrides the provider's base URL (OpenAI style includes `/v1`; Anthropic's does not). */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** The environment variable the key was read from, shown instead of the key. */
  readonly apiKeyEnv?: string;
  /** Azure's `api-version`: with it, calls go to `/openai/deployments/<upstreamModel>/...?api-version=`. */
  readonly apiVersion?: string;
  /** How `/v1/responses` reaches it, when configured (see usesNativeResponses). */
  readonly responsesApi?: 'native' | 'translate';
  /** Longest wait for the upstream's headers and longest silence mid-body (DEFAULT_TIMEOUT_MS unless set). */
  readonly timeoutMs: number;
  /**
   * A shorter wait for the headers and then the body's first bytes (a request's deadline, for one
   * attempt); silences once the body has begun keep `timeoutMs`.
   */
  readonly headersTimeoutMs?: number;
  /** Share of the model's traffic relative to its other deployments. */
  readonly weight: number;
  /** Further attempts on this deployment after a retryable failure, before falling back to another. */
  readonly maxRetries: number;
  /** What the deployment can do (`streaming`, `vision`, `tools`, ...); undefined means not declared. */
  readonly capabilities?: readonly string[];
  /** False for the deployment derived from a model name when none is configured. */
  readonly explicit: boolean;
  /**
   * On a deployment derived for an allowed model, when it goes to its provider's public address and no
   * key was found: the variable that would hold one (OPENAI_API_KEY). Its calls are refused before they
   * leave, unless the caller brings its own key; found once when the deployment is derived.
   */
  readonly unsetKeyVariable?: string;
}

/**
 * A lighter cancellation signal than AbortSignal: `aborted` once cancelled, and `abort` listeners
 * added with `once` and removed with `off` (an EventEmitter fits).
 */
export interface EmitterSignal {
  readonly aborted: boolean;
  /** Cancelled by the gateway's shutdown rather than by the client leaving. */
  readonly shuttingDown?: boolean;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/**
 * What cancels an upstream call. The pipeline passes an EmitterSignal: Node 20's AbortController
 * costs some 10-20 µs per request here, the pipeline's own signal well under one.
 */
export type CancelSignal = AbortSignal | EmitterSignal;

/** Request headers as Node hands them over (`IncomingHttpHeaders` fits), or a plain record. */
export type ClientHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What every provider call knows. */
export interface CallContext {
  readonly deployment: Deployment;
  /** The keep-alive connection pools of the gateway (closed with it). */
  readonly pools: UpstreamPools;
  /** `deployment.upstreamModel` without a provider prefix. */
  readonly upstreamModel: string;
  readonly signal: CancelSignal;
  readonly requestId: string;
  /**
   * The client's headers, present only when the client's body is forwarded natively: a provider
   * picks the few it documents (Anthropic: `anthropic-beta`), never credentials.
   */
  readonly clientHeaders?: ClientHeaders;
  /** W3C trace context of the gateway's span for this call (`traceparent`, `tracestate`), when tracing is on. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
  /** Where the upstream's answer is reported as it arrives (see UpstreamReport). */
  readonly report?: UpstreamReport;
}

/**
 * What the provider said of a call it answered 2xx, written as its headers arrive: its own request id
 * (OpenAI's `x-request-id`, Anthropic's `request-id`), which the gateway passes on as
 * `x-upstream-request-id` and which the provider's support asks for. The request's context is one.
 */
export interface UpstreamReport {
  upstreamRequestId?: string;
}

/** A native answer: parsed JSON (with its text when read from the wire), or the upstream's SSE events as they arrive. */
export type NativeResult =
  | { readonly kind: 'json'; readonly body: unknown; readonly text?: string }
  | { readonly kind: 'sse'; readonly events: AsyncIterable<SseEvent> };

/** A provider that speaks one client format natively (OpenAI chat completions, Anthropic Messages). */
export interface NativeChatProvider {
  readonly kind: 'native';
  readonly name: string;
  readonly format: ClientFormat;
  /** Sends a body in `format` (model already the upstream's); resolves after upstream 2xx headers. */
  send(body: Record<string, unknown>, context: CallContext): Promise<NativeResult>;
  /**
   * Provider quirks applied to translated requests only (the fast path forwards the client's body);
   * `request` is the IR the body was built from, for what only some servers of a format accept.
   */
  adaptTranslated?(body: Record<string, unknown>, context: CallContext, request: IrRequest): void;
  /**
   * Provider quirks applied to the client's own body on the fast path (after the gateway's own
   * additions, such as `stream_options`): fields a server refuses under the name the client used.
   */
  adaptNative?(body: Record<string, unknown>, context: CallContext): void;
  /** Sends a Responses body to the provider's own Responses API, where it has one. */
  sendResponses?(body: Record<string, unknown>, context: CallContext): Promise<NativeResult>;
  /** Deletes a response that API keeps (one already gone is no failure). */
  deleteResponse?(id: string, context: CallContext): Promise<void>;
}

/** A provider that works on the IR directly (the built-in demo provider). */
export interface IrChatProvider {
  readonly kind: 'ir';
  readonly name: string;
  generate(request: IrRequest, context: CallContext): Promise<IrResponse>;
  /** Resolves once the answer has started. */
  stream(request: IrRequest, context: CallContext): Promise<AsyncIterable<IrStreamEvent>>;
}

/** Either kind of chat provider. */
export type ChatProvider = NativeChatProvider | IrChatProvider;

/** A provider of embeddings; the answer's model is still the upstream's. */
export interface EmbeddingsProvider {
  embed(
    body: EmbeddingsBody,
    context: CallContext & { readonly apiKey?: string },
  ): Promise<{ body: EmbeddingsResponse; usage: Partial<Usage> | undefined }>;
}

/** Everything one deployment's provider offers. */
export interface ResolvedProvider {
  readonly chat: ChatProvider;
  /** Undefined for providers without embeddings (Anthropic). */
  readonly embeddings: EmbeddingsProvider | undefined;
  /** Values no message may carry (the deployment's key, wherever it came from). */
  readonly secrets: readonly string[];
}
