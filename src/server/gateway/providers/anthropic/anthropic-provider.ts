import { withoutUnsignedThinking } from '../../formats/messages/unsigned-thinking.js';
import { sendNative } from '../native-call.js';
import type { ProviderSettings } from '../provider-settings.js';
import type { ClientHeaders, NativeChatProvider, NativeResult } from '../types.js';
import { anthropicBeta } from './anthropic-beta.js';

/**
 * The API version this gateway speaks to Anthropic: the one whose parameters it sends (newer
 * versions reject `temperature`, `top_p` and `top_k` on some models).
 */
export const ANTHROPIC_VERSION = '2023-06-01';

/** An `anthropic-version` as Anthropic names its versions: a date. */
const VERSION_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The client's version headers, in the order they are read: Anthropic's name, then the interface document's. */
const VERSION_HEADERS = ['anthropic-version', 'vendor-version'];

/**
 * The `anthropic-version` of a call: the client's own on the native path, where the body is the
 * client's and was written for that version, sent as `anthropic-version` or `vendor-version` (the
 * routes refuse both with different dates), else ANTHROPIC_VERSION (a translated body is the
 * gateway's, written for it; the native path gets no client headers then).
 */
export function anthropicVersion(headers: ClientHeaders | undefined): string {
  const entries = Object.entries(headers ?? {});
  for (const header of VERSION_HEADERS) {
    const asked = entries.find(([name]) => name.toLowerCase() === header)?.[1];
    if (typeof asked === 'string' && VERSION_DATE.test(asked)) return asked;
  }
  return ANTHROPIC_VERSION;
}

/** The Anthropic Messages API (`POST /v1/messages`); Anthropic has no embeddings API. */
export function anthropicChatProvider(settings: ProviderSettings): NativeChatProvider {
  return {
    kind: 'native',
    name: settings.name,
    format: 'messages',
    async send(body, context): Promise<NativeResult> {
      const headers: Record<string, string> = {
        ...context.traceHeaders,
        'anthropic-version': anthropicVersion(context.clientHeaders),
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
          headersTimeoutMs: settings.headersTimeoutMs,
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
 * bodies alike, whatever `anthropic-version` the call carries (the range is 0..1 on every version);
 * the client's body is never changed in place.
 */
function withAnthropicTemperature(body: Record<string, unknown>): Record<string, unknown> {
  return typeof body.temperature === 'number' && body.temperature > MAX_TEMPERATURE
    ? { ...body, temperature: MAX_TEMPERATURE }
    : body;
}
