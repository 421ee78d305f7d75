import type { EmbeddingsBody, EmbeddingsResponse } from '../../formats/embeddings/embeddings-schema.js';
import { postForJson, sendDelete, type UpstreamCall } from '../http-client.js';
import { sendNative } from '../native-call.js';
import type { ProviderSettings } from '../provider-settings.js';
import type { CallContext, EmbeddingsProvider, NativeChatProvider, NativeResult } from '../types.js';
import { reportedTokens } from '../../formats/reported-tokens.js';
import { TranslationError } from '../../formats/translation-error.js';
import type { AnswerFormat } from '../answer-shape.js';
import type { IrRequest } from '../../formats/ir.js';

/**
 * OpenAI and every server that speaks its API (Ollama, LM Studio, vLLM, llama.cpp, OpenRouter, ...):
 * chat completions natively, and embeddings.
 */

/** OpenAI's own limit on stop sequences; compatible servers take more. */
const MAX_OPENAI_STOPS = 4;

/** Reasoning models take `max_completion_tokens`; `max_tokens` is rejected. */
const REASONING_MODEL = /^(o\d|gpt-5)/;
/** Of those, the ones that reason (and so take no sampling hints): gpt-5-chat models are chat models. */
const REASONS = /^(o\d|gpt-5(?!-chat))/;

/**
 * A reasoning model's token limit under the name it takes: `max_tokens` (the client's, or the one
 * `per_model_max_tokens` added to a request without a limit) becomes `max_completion_tokens`, the
 * lower of the two when both are there.
 */
function asCompletionTokens(body: Record<string, unknown>, upstreamModel: string): void {
  if (body.max_tokens == null || !REASONING_MODEL.test(upstreamModel)) return;
  const both = typeof body.max_completion_tokens === 'number' && typeof body.max_tokens === 'number';
  body.max_completion_tokens = both
    ? Math.min(body.max_completion_tokens as number, body.max_tokens as number)
    : (body.max_completion_tokens ?? body.max_tokens);
  delete body.max_tokens;
}

/**
 * A translated request as a reasoning model takes it: the client's reasoning effort (a Responses
 * client's, or a Messages client's thinking budget), which other models answer 400 to, and no
 * `temperature` or `top_p`, which o-series and gpt-5 models answer 400 to (they sample as they
 * reason); `stop` stays.
 */
function asReasoningRequest(body: Record<string, unknown>, request: IrRequest): void {
  if (request.reasoningEffort !== undefined) body.reasoning_effort = request.reasoningEffort;
  delete body.temperature;
  delete body.top_p;
}

/** The chat provider over an OpenAI-compatible upstream. */
export function openAiChatProvider(settings: ProviderSettings): NativeChatProvider {
  return {
    kind: 'native',
    name: settings.name,
    format: 'chat',
    // Not async: the call's promise is returned as it is, with no wrapper promise and no extra turn.
    send(body, context): Promise<NativeResult> {
      return sendNative(
        upstreamCall(settings, '/chat/completions', body, context, settings.apiKey, 'chat'),
        body.stream === true,
      );
    },
    sendResponses(body, context): Promise<NativeResult> {
      return sendNative(
        upstreamCall(settings, '/responses', body, context, settings.apiKey, 'responses'),
        body.stream === true,
      );
    },
    deleteResponse(id, context): Promise<void> {
      return sendDelete(
        upstreamCall(
          settings,
          `/responses/${encodeURIComponent(id)}`,
          undefined,
          context,
          settings.apiKey,
          'responses',
        ),
      );
    },
    adaptNative(body, context) {
      asCompletionTokens(body, context.upstreamModel);
      // Usage still comes, on the stream's last chunk: these servers send it unasked.
      if (!settings.acceptsStreamOptions) delete body.stream_options;
    },
    adaptTranslated(body, context, request) {
      asCompletionTokens(body, context.upstreamModel);
      if (settings.hasOpenAiLimits && Array.isArray(body.stop) && body.stop.length > MAX_OPENAI_STOPS)
        throw new TranslationError(
          `stop_sequences: OpenAI models take at most ${MAX_OPENAI_STOPS} stop sequences, got ${body.stop.length}`,
        );
      if (!settings.acceptsStreamOptions) delete body.stream_options;
      // A Messages client's top_k reaches the servers that take it; OpenAI would answer 400.
      if (request.topK !== undefined && settings.acceptsTopK) body.top_k = request.topK;
      if (REASONS.test(context.upstreamModel)) asReasoningRequest(body, request);
    },
  };
}

/** Embeddings over an OpenAI-compatible upstream (`POST /embeddings`). */
export function openAiEmbeddingsProvider(settings: ProviderSettings): EmbeddingsProvider {
  return {
    async embed(body: EmbeddingsBody, context) {
      const call = upstreamCall(
        settings,
        '/embeddings',
        body,
        context,
        context.apiKey ?? settings.apiKey,
        'embeddings',
      );
      const json = (await postForJson(call)).body as EmbeddingsResponse;
      const promptTokens = reportedTokens(json?.usage?.prompt_tokens);
      return {
        body: json,
        usage: promptTokens === undefined ? undefined : { promptTokens, completionTokens: 0 },
      };
    },
  };
}

/**
 * Azure's classic API names the deployment in the path and the version in the query
 * (`/openai/deployments/<name>/chat/completions?api-version=...`); without an api_version the path is
 * OpenAI's, which Azure's v1 API (`<resource>/openai/v1` as base URL) takes.
 */
function azurePath(settings: ProviderSettings, path: string, context: CallContext): string {
  const version = context.deployment.apiVersion;
  if (settings.name !== 'azure' || version === undefined) return path;
  return `/openai/deployments/${encodeURIComponent(context.upstreamModel)}${path}?api-version=${encodeURIComponent(version)}`;
}

function upstreamCall(
  settings: ProviderSettings,
  path: string,
  body: unknown,
  context: CallContext,
  apiKey: string | undefined,
  answer: AnswerFormat,
): UpstreamCall {
  const headers: Record<string, string> = {
    ...context.traceHeaders,
    'x-request-id': context.requestId,
  };
  if (settings.marksLoop) headers['x-gatehouse-via'] = context.pools.loopMark;
  if (apiKey) {
    if (settings.auth === 'api-key') headers['api-key'] = apiKey;
    else headers.authorization = `Bearer ${apiKey}`;
  }
  return {
    pools: context.pools,
    provider: settings.name,
    baseUrl: settings.baseUrl,
    path: azurePath(settings, path, context),
    headers,
    body,
    signal: context.signal,
    timeoutMs: settings.timeoutMs,
    headersTimeoutMs: settings.headersTimeoutMs,
    // The deployment's own key has its list already; a caller's passthrough key gets one here.
    secrets: apiKey === settings.apiKey ? settings.secrets : apiKey ? [apiKey] : [],
    answer,
    report: context.report,
  };
}
