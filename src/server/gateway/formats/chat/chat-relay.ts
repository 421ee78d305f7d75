import type { Usage } from '../ir.js';
import { DONE_FRAME, encodeEvent, type SseEvent } from '../sse.js';
import type { StreamUsage } from '../token-estimate.js';
import { chatUsageFromIr, chatUsageToIr } from './chat-response-ir.js';
import { streamEndedEarly } from '../stream-ended-early.js';
import { CHAT_STREAM_END, ChoiceFinishes, chatStreamError, parseChatChunk } from './chat-stream-decoder.js';

/**
 * The native fast path for chat completions: upstream frames are relayed as they arrive, with only
 * the model name rewritten to the public one (a string replace, so the upstream's bytes are kept).
 * Every frame is parsed once all the same: a malformed one must end the stream with an error frame
 * (and count as a failure) instead of reaching the client, and the parse yields usage and the
 * generated text to count.
 */

const MODEL_FIELD = /"model"\s*:\s*"(?:[^"\\]|\\.)*"/;
/**
 * A chunk's `"usage": null` (replaced only when the parsed chunk's top-level usage is null; no
 * nested field of a chunk is named usage), wherever it stands among the fields.
 */
const USAGE_NULL = /"usage"\s*:\s*null\s*,\s*|,\s*"usage"\s*:\s*null(?=\s*[,}])/;

/** Options of the chat relay. */
export interface ChatRelayOptions {
  readonly publicModel: string;
  /** Whether the client asked for usage; if not, the usage-only chunk we asked for is dropped. */
  readonly includeUsage: boolean;
  readonly usage: StreamUsage;
}

/** Relays an upstream chat stream as client frames, ending with `[DONE]` (or failing if it was cut off). */
export async function* relayChatStream(
  events: AsyncIterable<SseEvent>,
  options: ChatRelayOptions,
): AsyncGenerator<string> {
  const model = `"model":${JSON.stringify(options.publicModel)}`;
  let done = false;
  let first: Record<string, unknown> | undefined;
  let usageRelayed = false;
  const choices = new ChoiceFinishes();
  for await (const event of events) {
    const data = event.data;
    if (data === '[DONE]') {
      done = true;
      break;
    }
    if (data.trim() === '') continue;
    const chunk = parseChatChunk(data);
    if (chunk.error != null) throw chatStreamError(chunk.error);
    first ??= chunk;
    const usage = chatUsageToIr(chunk.usage);
    if (usage) options.usage.report(usage);
    countGenerated(chunk.choices, options.usage);
    choices.note(chunk);
    const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null;
    if (usageOnly && !options.includeUsage) continue;
    if (usage) usageRelayed = true;
    const relayed = data.replace(MODEL_FIELD, model);
    // Asked for by the gateway, not the client: OpenAI then adds `"usage":null` to every chunk.
    yield encodeEvent({
      data: chunk.usage === null && !options.includeUsage ? relayed.replace(USAGE_NULL, '') : relayed,
    });
  }
  if (!done && !choices.complete) throw streamEndedEarly(CHAT_STREAM_END);
  // Servers that ignore stream_options send no usage; a client that asked for it still gets the
  // counts the request is accounted with (the estimate), as a non-streamed answer does.
  if (options.includeUsage && !usageRelayed) yield estimatedUsageChunk(first, options);
  yield DONE_FRAME;
}

/** The usage-only chunk OpenAI ends a stream with, under the stream's own id, from the usage so far. */
function estimatedUsageChunk(first: Record<string, unknown> | undefined, options: ChatRelayOptions): string {
  return encodeEvent({
    data: JSON.stringify({
      id: first?.id ?? '',
      object: 'chat.completion.chunk',
      created: first?.created ?? Math.floor(Date.now() / 1000),
      model: options.publicModel,
      choices: [],
      usage: chatUsageFromIr(options.usage.current()),
    }),
  });
}

/** Sets the public model name on a non-streamed chat completion and reads its usage. */
export function relayChatJson(
  json: unknown,
  publicModel: string,
): { body: Record<string, unknown>; usage: Partial<Usage> | undefined } {
  const body = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  body.model = publicModel;
  return { body, usage: chatUsageToIr(body.usage) };
}

/** Adds the characters a chunk generated (text, refusals, tool-call arguments) to the estimate. */
function countGenerated(choices: unknown, usage: StreamUsage): void {
  if (!Array.isArray(choices)) return;
  for (const choice of choices) {
    const delta = (choice as { delta?: Record<string, unknown> } | null)?.delta;
    if (delta == null) continue;
    if (typeof delta.content === 'string') usage.addOutput(delta.content.length);
    if (typeof delta.refusal === 'string') usage.addOutput(delta.refusal.length);
    if (!Array.isArray(delta.tool_calls)) continue;
    for (const call of delta.tool_calls) {
      const args = (call as { function?: { arguments?: unknown } } | null)?.function?.arguments;
      if (typeof args === 'string') usage.addOutput(args.length);
    }
  }
}
