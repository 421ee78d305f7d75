import { postForJson } from '../http-client.js';
import { providerSettings } from '../provider-settings.js';
import type { CallContext } from '../types.js';
import { UpstreamError } from '../upstream-error.js';
import { ANTHROPIC_VERSION } from './anthropic-provider.js';
import { reportedTokens } from '../../formats/reported-tokens.js';

/**
 * Anthropic's own count of a Messages request's input tokens (`POST /v1/messages/count_tokens`),
 * over the same pools, key and timeout as the Messages call. `body` is the client's, sent with
 * `model` set to the upstream's name. Rejects with UpstreamError as the Messages call does.
 */
export async function countAnthropicTokens(body: Record<string, unknown>, context: CallContext): Promise<number> {
  const settings = providerSettings(context.deployment);
  const headers: Record<string, string> = {
    ...context.traceHeaders,
    'anthropic-version': ANTHROPIC_VERSION,
    'x-request-id': context.requestId,
  };
  if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  const call = {
    pools: context.pools,
    provider: settings.name,
    baseUrl: settings.baseUrl,
    path: '/v1/messages/count_tokens',
    headers,
    body: { ...body, model: context.upstreamModel },
    signal: context.signal,
    timeoutMs: settings.timeoutMs,
    secrets: settings.apiKey ? [settings.apiKey] : [],
  };
  const answer = (await postForJson(call)).body;
  const tokens = reportedTokens((answer as { input_tokens?: unknown } | null)?.input_tokens);
  if (tokens !== undefined) return tokens;
  // Like a body that is not JSON: the upstream answered 200 with something else, worth another try.
  throw new UpstreamError(`${settings.name} upstream answered count_tokens without an input_tokens count`, {
    status: 200,
    retryable: true,
    upstreamType: 'invalid_response',
  });
}
