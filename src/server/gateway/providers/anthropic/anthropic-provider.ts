import { postJson, readJson, type UpstreamCall } from '../http-client.js';
import type { ProviderSettings } from '../provider-settings.js';
import type { NativeChatProvider, NativeResult } from '../types.js';
import { upstreamEvents } from '../upstream-sse.js';

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
      const call: UpstreamCall = {
        provider: settings.name,
        baseUrl: settings.baseUrl,
        path: '/v1/messages',
        headers,
        body,
        signal: context.signal,
        timeoutMs: settings.timeoutMs,
        secrets: settings.apiKey ? [settings.apiKey] : [],
      };
      const response = await postJson(call);
      if (body.stream === true) return { kind: 'sse', events: upstreamEvents(response, call) };
      return { kind: 'json', body: await readJson(response, call) };
    },
  };
}
