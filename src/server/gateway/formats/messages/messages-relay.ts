import type { Usage } from '../ir.js';
import { encodeEvent, eventFrame, type SseEvent } from '../sse.js';
import type { StreamUsage } from '../token-estimate.js';
import { messagesUsageToIr } from './messages-response-ir.js';
import { streamEndedEarly } from '../stream-ended-early.js';
import { MESSAGES_STREAM_END, messagesStreamError, parseMessagesEvent } from './messages-stream-decoder.js';

/**
 * The native fast path for Messages: upstream events are relayed as they arrive, as the provider
 * sent them, except `message_start`, which gets the public model name. Every event is parsed all the
 * same: a malformed one must end the stream with an error frame (and count as a failure) instead of
 * reaching the client, and the parse yields usage and the generated text to count.
 */

/** Relays an upstream Messages stream as client frames (failing if it ends before `message_stop`). */
export async function* relayMessagesStream(
  events: AsyncIterable<SseEvent>,
  publicModel: string,
  usage: StreamUsage,
): AsyncGenerator<string> {
  let stopReason = false;
  for await (const received of events) {
    if (received.data.trim() === '') continue;
    const payload = parseMessagesEvent(received.data);
    const event = named(received, payload);
    switch (event.event) {
      case 'message_start': {
        const message = (payload.message ?? {}) as Record<string, unknown>;
        message.model = publicModel;
        const reported = messagesUsageToIr(message.usage);
        // Its output count is a placeholder; the prompt counts are final.
        if (reported?.promptTokens !== undefined) usage.report({ ...reported, completionTokens: undefined });
        yield eventFrame('message_start', JSON.stringify(payload));
        break;
      }
      case 'message_delta': {
        const reported = messagesUsageToIr(payload.usage);
        if (reported) usage.report(reported);
        if ((payload.delta as { stop_reason?: unknown } | undefined)?.stop_reason != null) stopReason = true;
        yield encodeEvent(event);
        break;
      }
      case 'content_block_delta':
        usage.addOutput(generatedLength(payload.delta));
        yield encodeEvent(event);
        break;
      case 'error':
        throw messagesStreamError(payload.error);
      case 'message_stop':
        yield encodeEvent(event);
        return;
      default:
        yield encodeEvent(event);
    }
  }
  // The stop reason is what a client needs; a compatible server may end the body after it. Anthropic's
  // SDKs make their final message only at message_stop, so the stream gets the one it left out.
  if (!stopReason) throw streamEndedEarly(MESSAGES_STREAM_END);
  yield MESSAGE_STOP_FRAME;
}

const MESSAGE_STOP_FRAME = eventFrame('message_stop', JSON.stringify({ type: 'message_stop' }));

/**
 * The event with its name. Some Anthropic-compatible servers send `data:` lines without `event:`
 * lines, and Anthropic's SDKs drop a frame without a name (the rest of the answer with it), so a
 * nameless event is named after the type its JSON carries, as the Messages format has it.
 */
function named(event: SseEvent, payload: { readonly type?: unknown }): SseEvent {
  if (event.event !== undefined) return event;
  return typeof payload.type === 'string' ? { event: payload.type, data: event.data } : event;
}

/** Characters a content block delta generated: its text, tool input JSON or thinking. */
function generatedLength(delta: unknown): number {
  if (delta === null || typeof delta !== 'object') return 0;
  const { text, partial_json: json, thinking } = delta as Record<string, unknown>;
  const length = (value: unknown): number => (typeof value === 'string' ? value.length : 0);
  return length(text) + length(json) + length(thinking);
}

/** Sets the public model name on a non-streamed Messages answer and reads its usage. */
export function relayMessagesJson(
  json: unknown,
  publicModel: string,
): { body: Record<string, unknown>; usage: Partial<Usage> | undefined } {
  const body = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  body.model = publicModel;
  return { body, usage: messagesUsageToIr(body.usage) };
}
