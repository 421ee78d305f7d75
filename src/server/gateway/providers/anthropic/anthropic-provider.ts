import { withoutUnsignedThinking } from '../../formats/messages/unsigned-thinking.js';
import { sendNative } from '../native-call.js';
import type { ProviderSettings } from '../provider-settings.js';
import type { NativeChatProvider, NativeResult } from '../types.js';
import { anthropicBeta } from './anthropic-beta.js';

/**
 * The API version this gateway speaks to Anthropic: the one whose parameters it sends (newer
 * versions reject `temperature`, `top_p` and `top_k` on some models).
 */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The Anthropic Messages API (`POST /v1/messages`); Anthropic has no embeddings API. */
export function anthropicChatProvider(settings: ProviderSettings): NativeChatProvider {
  return {
    kind: 'native',
    name: settings.name,
    format: 'messages',
    async send(body, context): Promise<NativeResult> {
      const headers: Record<string, string> = {
        ...context.traceHeaders,
        'anthropic-version': ANTHROPIC_VERSION,
        'x-request-id': context.requestId,
      };
      if (settings.marksLoop) headers['x-gatehouse-via'] = context.pools.loopMark;
      const beta = anthropicBeta(context.clientHeaders);
      if (beta !== undefined) headers['anthropic-beta'] = beta;
      if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
      return sendNative(
        {
          pools: context.pools,
          provider: settings.name,
          baseUrl: settings.baseUrl,
          path: '/v1/messages',
          headers,
          body: withAnthropicTemperature(withoutUnsignedThinking(body)),
          signal: context.signal,
          timeoutMs: settings.timeoutMs,
          secrets: settings.secrets,
          answer: 'messages',
          report: context.report,
        },
        body.stream === true,
      );
    },
  };
}

/** Anthropic's highest temperature; the gateway accepts up to 2 everywhere, so one setting fits every provider. */
const MAX_TEMPERATURE = 1;

/**
 * The body with a temperature above Anthropic's range sent as 1, so that a caller asking for more
 * randomness than Claude offers gets the most there is, not an upstream 400. Native and translated
 * bodies alike; the client's body is never changed in place.
 */
function withAnthropicTemperature(body: Record<string, unknown>): Record<string, unknown> {
  return typeof body.temperature === 'number' && body.temperature > MAX_TEMPERATURE
    ? { ...body, temperature: MAX_TEMPERATURE }
    : body;
}
