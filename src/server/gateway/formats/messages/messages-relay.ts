import type { Usage } from '../ir.js';
import { encodeEvent, eventFrame, type SseEvent } from '../sse.js';
import type { StreamUsage } from '../token-estimate.js';
import { messagesUsageToIr } from './messages-response-ir.js';
import { streamEndedEarly } from '../stream-ended-early.js';
import { MESSAGES_STREAM_END, messagesStreamError, parseMessagesEvent } from './messages-stream-decoder.js';

/**
 * The native fast path for Messages: upstream events are relayed as they arrive. Only
 * `message_start` (model name, prompt tokens), `message_delta` (output tokens) and `error` are
 * parsed (and an event that came without its name); deltas are passed through after a string scan
 * that counts generated characters.
 */

const GENERATED_TEXT = /"(?:text|partial_json)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** Relays an upstream Messages stream as client frames (failing if it ends before `message_stop`). */
export async function* relayMessagesStream(
  events: AsyncIterable<SseEvent>,
  publicModel: string,
  usage: StreamUsage,
): AsyncGenerator<string> {
  let stopReason = false;
  for await (const received of events) {
    if (received.data.trim() === '') continue;
    const event = named(received);
    const type = event.event;
    switch (type) {
      case 'message_start': {
        const payload = parseMessagesEvent(event.data);
        const message = (payload.message ?? {}) as Record<string, unknown>;
        message.model = publicModel;
        const reported = messagesUsageToIr(message.usage);
        // Its output count is a placeholder; the prompt counts are final.
        if (reported?.promptTokens !== undefined) usage.report({ ...reported, completionTokens: undefined });
        yield eventFrame('message_start', JSON.stringify(payload));
        break;
      }
      case 'message_delta': {
        const payload = parseMessagesEvent(event.data);
        const reported = messagesUsageToIr(payload.usage);
        if (reported) usage.report(reported);
        if ((payload.delta as { stop_reason?: unknown } | undefined)?.stop_reason != null) stopReason = true;
        yield encodeEvent(event);
        break;
      }
      case 'content_block_delta':
        for (const match of event.data.matchAll(GENERATED_TEXT)) usage.addOutput(match[1].length);
        yield encodeEvent(event);
        break;
      case 'error':
        throw messagesStreamError(parseMessagesEvent(event.data).error);
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
function named(event: SseEvent): SseEvent {
  if (event.event !== undefined) return event;
  const type = parseMessagesEvent(event.data).type;
  return typeof type === 'string' ? { event: type, data: event.data } : event;
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
