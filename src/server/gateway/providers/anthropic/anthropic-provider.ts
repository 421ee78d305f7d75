import { sendNative } from '../native-call.js';
import type { ProviderSettings } from '../provider-settings.js';
import type { NativeChatProvider, NativeResult } from '../types.js';

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
      const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, 'x-request-id': context.requestId };
      if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
      return sendNative({
        provider: settings.name,
        baseUrl: settings.baseUrl,
        path: '/v1/messages',
        headers,
        body,
        signal: context.signal,
        timeoutMs: settings.timeoutMs,
        secrets: settings.apiKey ? [settings.apiKey] : [],
      }, body.stream === true);
    },
  };
}
