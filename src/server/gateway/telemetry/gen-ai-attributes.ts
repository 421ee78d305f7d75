import type { Attributes } from '@opentelemetry/api';
import type { Usage } from '../formats/ir.js';
import { providerSettings } from '../providers/provider-settings.js';
import { upstreamModelName } from '../providers/registry.js';
import type { Deployment } from '../providers/types.js';
import type { Endpoint } from '../pipeline/request-context.js';
import { finishReasonsOf } from './finish-reasons.js';

// GenAI semantic conventions (still "development" upstream, so the names are spelled out here
// rather than imported from the package's incubating entry point, which may rename them).
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  maxTokens: 'gen_ai.request.max_tokens',
  temperature: 'gen_ai.request.temperature',
  topP: 'gen_ai.request.top_p',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
} as const;

/** Marks token counts the gateway estimated (the upstream reported none, or a stream was cut before it did). */
const USAGE_ESTIMATED = 'gatehouse.usage.estimated';

/**
 * The GenAI operation of an endpoint's upstream call. Counting tokens is none the conventions name:
 * called `chat`, it read as a chat call that used no tokens.
 */
export function genAiOperation(endpoint: Endpoint): string {
  return endpoint === 'embeddings' || endpoint === 'count_tokens' ? endpoint : 'chat';
}

/** `gen_ai.provider.name` values the conventions define; other providers keep their own name. */
function genAiProvider(provider: string): string {
  switch (provider) {
    case 'azure':
      return 'azure.ai.openai';
    case 'gemini':
      return 'gcp.gemini';
    case 'mistral':
      return 'mistral_ai';
    case 'xai':
      return 'x_ai';
    default:
      return provider;
  }
}

const servers = new WeakMap<Deployment, { address: string; port: number } | null>();

/** Host and port the deployment's calls go to (none for the built-in demo provider); parsed once per deployment. */
function serverOf(deployment: Deployment): { address: string; port: number } | null {
  let server = servers.get(deployment);
  if (server !== undefined) return server;
  server = null;
  if (deployment.provider !== 'demo') {
    try {
      const url = new URL(providerSettings(deployment).baseUrl);
      server = { address: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
    } catch {
      // No base URL: the call fails with its own error; the span just has no server.
    }
  }
  servers.set(deployment, server);
  return server;
}

/** Attributes of an upstream call as it starts: never prompt text, only names and numeric parameters. */
export function upstreamAttributes(
  endpoint: Endpoint,
  deployment: Deployment,
  body: Record<string, unknown>,
  attempt: number,
): Attributes {
  const provider = genAiProvider(deployment.provider);
  const attributes: Attributes = {
    [GEN_AI.operation]: genAiOperation(endpoint),
    [GEN_AI.provider]: provider,
    [GEN_AI.system]: provider,
    [GEN_AI.requestModel]: upstreamModelName(deployment),
    'gatehouse.deployment.id': deployment.id,
    'gatehouse.attempt': attempt,
  };
  const maxTokens = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
  if (typeof maxTokens === 'number') attributes[GEN_AI.maxTokens] = maxTokens;
  if (typeof body.temperature === 'number') attributes[GEN_AI.temperature] = body.temperature;
  if (typeof body.top_p === 'number') attributes[GEN_AI.topP] = body.top_p;
  const server = serverOf(deployment);
  if (server !== null) {
    attributes['server.address'] = server.address;
    attributes['server.port'] = server.port;
  }
  return attributes;
}

/** Usage that may say its counts were estimated rather than reported by the provider. */
type ReportedUsage = Usage & { readonly estimated?: boolean };

/** Attributes of a finished upstream call. */
export function usageAttributes(deployment: Deployment, usage: ReportedUsage | undefined): Attributes {
  const attributes: Attributes = { [GEN_AI.responseModel]: upstreamModelName(deployment) };
  if (usage !== undefined) {
    attributes[GEN_AI.inputTokens] = usage.promptTokens;
    attributes[GEN_AI.outputTokens] = usage.completionTokens;
    // Parts of the two counts above, as the conventions define them: only when the provider said.
    if (usage.cachedPromptTokens !== undefined) attributes[GEN_AI.cacheReadTokens] = usage.cachedPromptTokens;
    if (usage.cacheWritePromptTokens !== undefined)
      attributes[GEN_AI.cacheCreationTokens] = usage.cacheWritePromptTokens;
    if (usage.reasoningTokens !== undefined) attributes[GEN_AI.reasoningTokens] = usage.reasoningTokens;
    if (usage.estimated === true) attributes[USAGE_ESTIMATED] = true;
  }
  return attributes;
}

/**
 * The answer's id and why it stopped ({@link finishReasonsOf}: one vocabulary whichever endpoint
 * served it), read from a whole answer as the client gets it. Never any text of the answer.
 */
export function responseAttributes(body: object): Attributes {
  const attributes: Attributes = {};
  const id = (body as { readonly id?: unknown }).id;
  if (typeof id === 'string') attributes[GEN_AI.responseId] = id;
  const reasons = finishReasonsOf(body);
  if (reasons.length > 0) attributes[GEN_AI.finishReasons] = reasons;
  return attributes;
}
