import type { IrStreamEvent } from '../ir.js';
import type { SseEvent } from '../sse.js';
import { streamEndedEarly } from '../stream-ended-early.js';
import { malformedFrame, StreamError } from '../stream-error.js';
import { anthropicErrorStatus } from './messages-errors.js';
import { messagesUsageToIr, stopReasonToIr } from './messages-response-ir.js';
import { signedThinkingOf } from './signed-thinking.js';

type Payload = Record<string, unknown>;

/**
 * Decodes an upstream Messages stream into IR events. Tool calls are keyed by their content block
 * index. Prompt tokens come from `message_start`, output tokens from `message_delta` (cumulative).
 * A body that ends before `message_stop` and without a stop reason was cut off: a stream error.
 */
export async function* decodeMessagesStream(events: AsyncIterable<SseEvent>): AsyncGenerator<IrStreamEvent> {
  let finished = false;
  // A ping before message_start would commit the stream before it is known to have started.
  let started = false;
  // Thinking blocks being streamed, by content block index: text and signature arrive as deltas.
  const thinking = new Map<number, { thinking: string; signature: string }>();
  // Tool blocks without JSON so far. Anthropic streams a call without arguments as no JSON at all
  // (its `input` is `{}`), while OpenAI's formats write "{}": such a call gets it once it is known
  // to be whole, when a block follows it or the answer stops for another reason than the token limit.
  const noArguments = new Set<number>();
  function* argumentsOfEmptyCalls(): Generator<IrStreamEvent> {
    for (const index of noArguments) yield { type: 'tool_call_delta', index, arguments: '{}' };
    noArguments.clear();
  }
  for await (const event of events) {
    if (event.data.trim() === '') continue;
    const payload = parseMessagesEvent(event.data);
    const type = typeof payload.type === 'string' ? payload.type : event.event;
    switch (type) {
      case 'message_start': {
        const message = (payload.message ?? {}) as Payload;
        const usage = messagesUsageToIr(message.usage);
        // message_start's output count is a placeholder; only the prompt counts are final here.
        if (usage?.promptTokens !== undefined) {
          const { completionTokens: _placeholder, ...promptCounts } = usage;
          yield { type: 'usage', usage: promptCounts };
        }
        started = true;
        yield { type: 'start', id: String(message.id ?? ''), model: String(message.model ?? '') };
        break;
      }
      case 'content_block_start': {
        yield* argumentsOfEmptyCalls();
        const index = Number(payload.index);
        const block = (payload.content_block ?? {}) as Payload;
        yield* blockStart(index, block);
        if (block.type === 'thinking')
          thinking.set(index, { thinking: String(block.thinking ?? ''), signature: String(block.signature ?? '') });
        else if (block.type === 'redacted_thinking') {
          const signed = signedThinkingOf(block);
          if (signed !== undefined) yield { type: 'signed_thinking', block: signed };
        }
        if (block.type === 'tool_use' && !hasInput(block.input)) noArguments.add(index);
        break;
      }
      case 'content_block_delta': {
        const delta = (payload.delta ?? {}) as Payload;
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '')
          yield { type: 'text', text: delta.text };
        else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking !== '') {
          const block = thinking.get(Number(payload.index));
          if (block !== undefined) block.thinking += delta.thinking;
          yield { type: 'reasoning', text: delta.thinking };
        } else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
          const block = thinking.get(Number(payload.index));
          if (block !== undefined) block.signature += delta.signature;
        } else if (
          delta.type === 'input_json_delta' &&
          typeof delta.partial_json === 'string' &&
          delta.partial_json !== ''
        ) {
          noArguments.delete(Number(payload.index));
          yield { type: 'tool_call_delta', index: Number(payload.index), arguments: delta.partial_json };
        }
        break;
      }
      case 'content_block_stop': {
        const block = thinking.get(Number(payload.index));
        thinking.delete(Number(payload.index));
        const signed = block === undefined ? undefined : signedThinkingOf({ type: 'thinking', ...block });
        if (signed !== undefined) yield { type: 'signed_thinking', block: signed };
        break;
      }
      case 'message_delta': {
        const delta = (payload.delta ?? {}) as Payload;
        const usage = messagesUsageToIr(payload.usage);
        if (usage) yield { type: 'usage', usage };
        if (delta.stop_reason != null) {
          finished = true;
          const stopReason = stopReasonToIr(delta.stop_reason);
          // A call the limit stopped before any JSON is not known to be whole: it stays without arguments.
          if (stopReason !== 'length') yield* argumentsOfEmptyCalls();
          yield {
            type: 'finish',
            stopReason,
            stopSequence: typeof delta.stop_sequence === 'string' ? delta.stop_sequence : null,
          };
        }
        break;
      }
      case 'message_stop':
        return;
      case 'error':
        throw messagesStreamError(payload.error);
      case 'ping':
        if (started) yield { type: 'keepalive' };
        break;
      default:
        // Event kinds added later carry nothing the IR needs.
        break;
    }
  }
  if (!finished) throw streamEndedEarly(MESSAGES_STREAM_END);
}

/** What finishes a Messages stream, for the message of one that ended without it. */
export const MESSAGES_STREAM_END = 'message_stop';

function* blockStart(index: number, block: Payload): Generator<IrStreamEvent> {
  if (block.type === 'text') {
    if (typeof block.text === 'string' && block.text !== '') yield { type: 'text', text: block.text };
  } else if (block.type === 'tool_use') {
    yield { type: 'tool_call_start', index, id: String(block.id ?? ''), name: String(block.name ?? '') };
    if (hasInput(block.input)) yield { type: 'tool_call_delta', index, arguments: JSON.stringify(block.input) };
  }
}

/** Whether a tool_use block's start already carries its input (some compatible servers send it there). */
function hasInput(input: unknown): boolean {
  return input !== null && typeof input === 'object' && Object.keys(input).length > 0;
}

/** Parses one event's data, failing as a stream error (bad gateway) when it is not JSON. */
export function parseMessagesEvent(data: string): Payload {
  try {
    const value: unknown = JSON.parse(data);
    if (value !== null && typeof value === 'object') return value as Payload;
  } catch {
    // fall through
  }
  throw malformedFrame('event', data);
}

/** The error an `event: error` of a Messages stream reports. */
export function messagesStreamError(error: unknown): StreamError {
  const body = (error ?? {}) as Payload;
  const type = typeof body.type === 'string' ? body.type : 'api_error';
  return new StreamError(
    typeof body.message === 'string' ? body.message : JSON.stringify(error),
    anthropicErrorStatus(type),
    type,
  );
}
