/**
 * The gateway's provider layer: what the pipeline calls to reach a model. Pure modules, no HTTP routes.
 *
 * ```ts
 * type ClientFormat = 'chat' | 'messages';
 * interface Usage { promptTokens: number; completionTokens: number }
 * type ProviderAnswer =
 *   | { kind: 'json'; body: object; text?: string; usage: Usage }   // client's format, model = deployment.model
 *   | { kind: 'stream'; events: AsyncIterable<string>;              // ready-to-write SSE frames (chat ends with [DONE])
 *       usage(): Usage;                                             // final once events is exhausted
 *       error(): UpstreamError | undefined }                        // set when the stream failed after it started
 *
 * // Conversations. `body` is the validated client request (see ../formats), model already canonical,
 * // max_tokens already capped. `headers` (the client's request headers) lets the native path forward
 * // the few a provider documents: `anthropic-beta` for Messages -> Anthropic; never credentials.
 * executeChat({ format, body, deployment, pools, signal, requestId, headers?, report? }): Promise<ProviderAnswer>
 *
 * // Responses (OpenAI's /v1/responses) over each provider's chat API through the IR: a Response
 * // object, or the typed event stream OpenAI sends.
 * executeResponses({ body, deployment, pools, signal, requestId, report? }): Promise<ProviderAnswer>
 *
 * // Embeddings in OpenAI's shape; honours encoding_format (float | base64) and dimensions.
 * executeEmbeddings({ body, deployment, pools, signal, requestId, apiKeyOverride? }): Promise<JsonAnswer>
 *
 * inferProvider(model, deployments?): string | undefined     // prefix, then family, then deployments
 * deploymentProblem(deployment): string | undefined         // why it could never be called
 * supportsEmbeddings(provider): boolean                      // false for anthropic
 * new UpstreamPools() / pools.close()                        // the keep-alive pools, owned by the caller
 * ```
 *
 * Errors, all thrown before anything is returned (for streams: before the upstream's first event,
 * so a retry or a fallback to another deployment is still possible):
 * - `UpstreamError { status, retryable, upstreamType, retryAfterMs, retryAfterSeconds, message }`: the provider's
 *   HTTP status, or 0 for connection errors, timeouts and client aborts (`upstreamType: 'aborted'`,
 *   not retryable). `retryable` is true for 0, 408, 429 and 5xx. The message names the provider,
 *   its status and its message, never the API key.
 * - `TranslationError` (from ../formats): the request cannot be expressed for this provider (an
 *   audio part, `n > 1` or `logprobs` for Claude; an Anthropic server tool for GPT). Its message
 *   names the parameter. What is translated, dropped or refused: docs/gateway-translation.md.
 * - `UnsupportedOperationError`: embeddings on Anthropic.
 *
 * Streams: after the start, an upstream failure is written as a final error frame in the client's
 * format (chat: `data: {"error": ...}` then `[DONE]`; Messages: `event: error`), which the SDKs raise
 * as errors, and reported by `error()`. Aborting `signal`, or stopping the iteration early, destroys
 * the upstream request; iterate `events` to the end or call its `return()`.
 *
 * Deployments: `provider` is `openai`, `anthropic`, `demo`, or any OpenAI-compatible name
 * (`ollama`, `lmstudio`, `vllm`, `llamacpp`, `openrouter`, `gemini`, `azure`, `groq`, `mistral`,
 * `deepseek`, `together_ai`, `xai`, `fireworks_ai`, `openai_compatible` with a baseUrl). Missing
 * base URLs and keys come from the usual environment variables (OPENAI_BASE_URL, OPENAI_API_KEY,
 * ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, ...), then the public defaults. OpenAI-style base URLs
 * include `/v1`; Anthropic's do not. `timeoutMs` bounds the wait for headers and any silence
 * mid-body (DEFAULT_TIMEOUT_MS unless configured).
 */
export { executeChat, type ExecuteChatArgs } from './execute-chat.js';
export { executeEmbeddings, type ExecuteEmbeddingsArgs } from './execute-embeddings.js';
export { executeResponses, type ExecuteResponsesArgs } from './execute-responses.js';
export type { JsonAnswer, ProviderAnswer, StreamAnswer } from './answer.js';
export { inferProvider } from './infer-provider.js';
export { deploymentProblem } from './deployment-problem.js';
export { resolveProvider, supportsEmbeddings, upstreamModelName } from './registry.js';
export { KNOWN_PROVIDERS, DEFAULT_TIMEOUT_MS } from './provider-settings.js';
export { UpstreamPools } from './upstream-pools.js';
export { UpstreamError, UnsupportedOperationError, isRetryableStatus } from './upstream-error.js';
export { ANTHROPIC_VERSION } from './anthropic/anthropic-provider.js';
export { DEMO_EMBEDDING_DIMENSIONS } from './demo/demo-embeddings.js';
export type { CancelSignal, ClientHeaders, Deployment } from './types.js';
export type { ClientFormat } from '../formats/codec.js';
export type { Usage } from '../formats/ir.js';
export type { ChatBody } from '../formats/chat/chat-schema.js';
export type { MessagesBody } from '../formats/messages/messages-schema.js';
export type { EmbeddingsBody, EmbeddingsResponse } from '../formats/embeddings/embeddings-schema.js';
export { TranslationError } from '../formats/translation-error.js';
