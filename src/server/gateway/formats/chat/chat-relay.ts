import type { Usage } from '../ir.js';
import { DONE_FRAME, encodeEvent, type SseEvent } from '../sse.js';
import type { StreamUsage } from '../token-estimate.js';
import { chatUsageToIr } from './chat-response-ir.js';
import { chatStreamError, parseChatChunk } from './chat-stream-decoder.js';

/**
 * The native fast path for chat completions: upstream frames are relayed as they arrive, with only
 * the model name rewritten to the public one. Frames are parsed only when they carry usage or an
 * error, so relaying costs a couple of string scans per chunk.
 */

const MODEL_FIELD = /"model"\s*:\s*"(?:[^"\\]|\\.)*"/;
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
const ERROR_FIELD = /"error"\s*:/;
const GENERATED_TEXT = /"(?:content|arguments|refusal)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** Options of the chat relay. */
export interface ChatRelayOptions {
  readonly publicModel: string;
  /** Whether the client asked for usage; if not, the usage-only chunk we asked for is dropped. */
  readonly includeUsage: boolean;
  readonly usage: StreamUsage;
}

/** Relays an upstream chat stream as client frames, ending with `[DONE]`. */
export async function* relayChatStream(
  events: AsyncIterable<SseEvent>,
  options: ChatRelayOptions,
): AsyncGenerator<string> {
  const model = `"model":${JSON.stringify(options.publicModel)}`;
  for await (const event of events) {
    const data = event.data;
    if (data === '[DONE]') break;
    if (data.trim() === '') continue;
    let usageOnly = false;
    if (ERROR_FIELD.test(data) || USAGE_OBJECT.test(data)) {
      const chunk = parseChatChunk(data);
      if (chunk.error != null) throw chatStreamError(chunk.error);
      const usage = chatUsageToIr(chunk.usage);
      if (usage) options.usage.report(usage);
      usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0;
    }
    countGenerated(data, options.usage);
    if (usageOnly && !options.includeUsage) continue;
    yield encodeEvent({ data: data.replace(MODEL_FIELD, model) });
  }
  yield DONE_FRAME;
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

function countGenerated(data: string, usage: StreamUsage): void {
  for (const match of data.matchAll(GENERATED_TEXT)) usage.addOutput(match[1].length);
}
