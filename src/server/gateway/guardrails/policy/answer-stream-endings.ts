import { chatUsageFromIr } from '../../formats/chat/chat-response-ir.js';
import type { Usage } from '../../formats/ir.js';
import { messagesUsageFromIr } from '../../formats/messages/messages-response-ir.js';
import { responsesUsage } from '../../formats/responses/responses-response-ir.js';
import { DONE_FRAME, encodeEvent } from '../../formats/sse.js';

// Events of three wire formats, read loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const named = (type: string, data: Json): string =>
  encodeEvent({ event: type, data: JSON.stringify({ type, ...data }) });

/**
 * Chat: a chunk finishing every choice still open with `content_filter`, the usage chunk when the
 * client asked for it (`stream_options.include_usage`), and `[DONE]`.
 */
export function chatStopped(envelope: Json, open: readonly number[], usage: Usage, includeUsage: boolean): string {
  const choices = open.map((index) => ({ index, delta: {}, logprobs: null, finish_reason: 'content_filter' }));
  let out = encodeEvent({ data: JSON.stringify({ ...envelope, choices }) });
  if (includeUsage)
    out += encodeEvent({ data: JSON.stringify({ ...envelope, choices: [], usage: chatUsageFromIr(usage) }) });
  return out + DONE_FRAME;
}

/** Messages: the open content blocks closed, `message_delta` with `stop_reason: "refusal"` and the usage, `message_stop`. */
export function messagesStopped(open: readonly number[], usage: Usage): string {
  let out = '';
  for (const index of open) out += named('content_block_stop', { index });
  out += named('message_delta', {
    delta: { stop_reason: 'refusal', stop_sequence: null },
    usage: messagesUsageFromIr(usage),
  });
  return out + named('message_stop', {});
}

/**
 * Responses: `response.incomplete` for `content_filter`, numbered after the last event sent, with the
 * output withheld (as a whole answer stopped) and the usage.
 */
export function responsesStopped(response: Json | undefined, sequence: number, usage: Usage): string {
  const { output_text: _text, ...rest } = response ?? { object: 'response' };
  return named('response.incomplete', {
    sequence_number: sequence,
    response: {
      ...rest,
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      output: [],
      usage: responsesUsage(usage),
    },
  });
}
