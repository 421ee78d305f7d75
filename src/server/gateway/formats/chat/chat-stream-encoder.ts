import type { IrStopReason, IrStreamEvent, Usage } from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { DONE_FRAME, KEEPALIVE_FRAME, dataFrame } from '../sse.js';
import { chatId, chatUsageFromIr, finishReasonFromIr, nowSeconds } from './chat-response-ir.js';
import type { ChatCompletionChunk, ChatDelta } from './chat-wire.js';

/** Options of the chat stream encoder. */
export interface ChatStreamOptions {
  /** Upstream id; a `chatcmpl-` id is derived from it. */
  readonly id: string;
  /** The public model name. */
  readonly model: string;
  /** Whether the client asked for `stream_options.include_usage` (adds the usage-only chunk). */
  readonly includeUsage: boolean;
  /** Final usage, read once the events are exhausted. */
  readonly usage: () => Usage;
  readonly created?: number;
}

/**
 * Encodes IR events as chat completions SSE frames, ending with `data: [DONE]`: the role chunk,
 * content and tool-call deltas (`index` counts tool calls), the finish chunk, and, when the client
 * asked for it, a usage chunk with empty `choices` (other chunks then carry `usage: null`, as
 * OpenAI does).
 */
export async function* encodeChatStream(
  events: AsyncIterable<IrStreamEvent>,
  options: ChatStreamOptions,
): AsyncGenerator<string> {
  const created = options.created ?? nowSeconds();
  let id = chatId(options.id);
  let started = false;
  let finished = false;
  const toolIndexes = new Map<number, number>();
  const frame = (delta: ChatDelta, finishReason: IrStopReason | null = null): string => {
    const chunk: ChatCompletionChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: options.model,
      choices: [
        {
          index: 0,
          delta,
          logprobs: null,
          finish_reason: finishReason === null ? null : finishReasonFromIr(finishReason),
        },
      ],
    };
    if (options.includeUsage) chunk.usage = null;
    return dataFrame(JSON.stringify(chunk));
  };
  const start = (): string => {
    started = true;
    return frame({ role: 'assistant', content: '' });
  };

  for await (const event of events) {
    switch (event.type) {
      case 'start':
        if (!started) {
          if (event.id !== '') id = chatId(event.id);
          yield start();
        }
        break;
      case 'text':
        if (!started) yield start();
        yield frame({ content: event.text });
        break;
      case 'reasoning':
        if (!started) yield start();
        yield frame({ reasoning_content: event.text });
        break;
      case 'tool_call_start': {
        if (!started) yield start();
        const index = toolIndexes.size;
        toolIndexes.set(event.index, index);
        yield frame({
          tool_calls: [{ index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }],
        });
        break;
      }
      case 'tool_call_delta': {
        const index = toolIndexes.get(event.index);
        if (index === undefined) break;
        yield frame({ tool_calls: [{ index, function: { arguments: event.arguments } }] });
        break;
      }
      case 'finish':
        if (!started) yield start();
        if (!finished) yield frame({}, event.stopReason);
        finished = true;
        break;
      case 'usage':
        break;
      case 'signed_thinking':
        // The whole block in one delta, as the answer's `thinking_blocks` carries it (LiteLLM's field):
        // a client keeping these sends them back with the turn.
        if (!started) yield start();
        yield frame({ thinking_blocks: [event.block] });
        break;
      case 'keepalive':
        // A comment, not a chunk: the first frame stays the role chunk.
        if (started) yield KEEPALIVE_FRAME;
        break;
      default:
        assertNever(event, 'stream event');
    }
  }
  if (!started) yield start();
  if (!finished) yield frame({}, toolIndexes.size > 0 ? 'tool_calls' : 'stop');
  if (options.includeUsage) {
    const chunk: ChatCompletionChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: options.model,
      choices: [],
      usage: chatUsageFromIr(options.usage()),
    };
    yield dataFrame(JSON.stringify(chunk));
  }
  yield DONE_FRAME;
}
