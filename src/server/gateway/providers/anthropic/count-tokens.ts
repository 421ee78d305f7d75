import { postForJson } from '../http-client.js';
import { providerSettings } from '../provider-settings.js';
import type { CallContext } from '../types.js';
import { UpstreamError } from '../upstream-error.js';
import { anthropicBeta } from './anthropic-beta.js';
import { anthropicVersion } from './anthropic-provider.js';
import { reportedTokens } from '../../formats/reported-tokens.js';

/**
 * Messages fields that shape the answer, not the prompt. Anthropic's count endpoint refuses them
 * (`max_tokens: Extra inputs are not permitted`), while the gateway takes a whole Messages body to
 * count, so a caller may count the very parameters it sends: they are left out of the count.
 */
const ANSWER_FIELDS = [
  'max_tokens',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'service_tier',
];

/**
 * Anthropic's own count of a Messages request's input tokens (`POST /v1/messages/count_tokens`),
 * over the same pools, key and timeout as the Messages call. `body` is the client's, sent with
 * `model` set to the upstream's name and without the fields that only shape an answer, with the
 * client's betas. Rejects with UpstreamError as the Messages call does.
 */
export async function countAnthropicTokens(body: Record<string, unknown>, context: CallContext): Promise<number> {
  const settings = providerSettings(context.deployment);
  const headers: Record<string, string> = {
    ...context.traceHeaders,
    'anthropic-version': anthropicVersion(context.clientHeaders),
    'x-request-id': context.requestId,
  };
  if (settings.marksLoop) headers['x-gatehouse-via'] = context.pools.loopMark;
  const beta = anthropicBeta(context.clientHeaders);
  if (beta !== undefined) headers['anthropic-beta'] = beta;
  if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  const prompt = Object.fromEntries(Object.entries(body).filter(([field]) => !ANSWER_FIELDS.includes(field)));
  const call = {
    pools: context.pools,
    provider: settings.name,
    baseUrl: settings.baseUrl,
    path: '/v1/messages/count_tokens',
    headers,
    body: { ...prompt, model: context.upstreamModel },
    signal: context.signal,
    timeoutMs: settings.timeoutMs,
    headersTimeoutMs: settings.headersTimeoutMs,
    secrets: settings.secrets,
    report: context.report,
  };
  const answer = (await postForJson(call)).body;
  const tokens = reportedTokens((answer as { input_tokens?: unknown } | null)?.input_tokens);
  if (tokens !== undefined) return tokens;
  // Like a body that is not JSON: the upstream answered 200 with something else, and would again on
  // another try there; another deployment is tried.
  throw new UpstreamError(`${settings.name} upstream answered count_tokens without an input_tokens count`, {
    status: 200,
    retryable: false,
    upstreamType: 'invalid_response',
  });
}
