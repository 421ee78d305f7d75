import type { IrStopReason, IrStreamEvent, Usage } from '../ir.js';
import { assertNever } from '../ir.js';
import { eventFrame } from '../sse.js';
import { messageId, stopReasonFromIr, toolUseId } from './messages-response-ir.js';

/** Options of the Messages stream encoder. */
export interface MessagesStreamOptions {
  /** Upstream id; a `msg_` id is derived from it. */
  readonly id: string;
  /** The public model name. */
  readonly model: string;
  /** Usage so far: read at `message_start` (prompt tokens) and at the end (final counts). */
  readonly usage: () => Usage;
}

function frame(type: string, payload: Record<string, unknown>): string {
  return eventFrame(type, JSON.stringify({ type, ...payload }));
}

/**
 * Encodes IR events as a Messages SSE stream: `message_start`, one `content_block_start` /
 * `content_block_delta`... / `content_block_stop` run per text or tool_use block, then
 * `message_delta` (stop reason, final usage) and `message_stop`. The final usage goes out last
 * because OpenAI-compatible upstreams report it after their finish chunk.
 */
export async function* encodeMessagesStream(events: AsyncIterable<IrStreamEvent>, options: MessagesStreamOptions): AsyncGenerator<string> {
  let id = options.id;
  let started = false;
  let blockIndex = -1;
  let open: { kind: 'text' } | { kind: 'tool'; irIndex: number } | undefined;
  let stopReason: IrStopReason | undefined;
  let stopSequence: string | null = null;
  let sawTool = false;

  const start = (): string => {
    started = true;
    return frame('message_start', {
      message: {
        id: messageId(id),
        type: 'message',
        role: 'assistant',
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: options.usage().promptTokens, output_tokens: 0 },
      },
    });
  };
  function* close(): Generator<string> {
    if (open === undefined) return;
    open = undefined;
    yield frame('content_block_stop', { index: blockIndex });
  }

  for await (const event of events) {
    switch (event.type) {
      case 'start':
        if (!started) {
          id = event.id;
          yield start();
        }
        break;
      case 'text':
        if (!started) yield start();
        if (open?.kind !== 'text') {
          yield* close();
          blockIndex += 1;
          open = { kind: 'text' };
          yield frame('content_block_start', { index: blockIndex, content_block: { type: 'text', text: '' } });
        }
        yield frame('content_block_delta', { index: blockIndex, delta: { type: 'text_delta', text: event.text } });
        break;
      case 'tool_call_start':
        if (!started) yield start();
        yield* close();
        blockIndex += 1;
        sawTool = true;
        open = { kind: 'tool', irIndex: event.index };
        yield frame('content_block_start', { index: blockIndex, content_block: { type: 'tool_use', id: toolUseId(event.id), name: event.name, input: {} } });
        break;
      case 'tool_call_delta':
        // Blocks cannot reopen: arguments of an earlier, interleaved tool call have nowhere to go.
        if (open?.kind === 'tool' && open.irIndex === event.index) {
          yield frame('content_block_delta', { index: blockIndex, delta: { type: 'input_json_delta', partial_json: event.arguments } });
        }
        break;
      case 'finish':
        stopReason = event.stopReason;
        stopSequence = event.stopSequence;
        break;
      case 'usage':
        break;
      default:
        assertNever(event, 'stream event');
    }
  }
  if (!started) yield start();
  yield* close();
  const reason = stopReason ?? (sawTool ? 'tool_calls' : 'stop');
  const usage = options.usage();
  yield frame('message_delta', {
    delta: { stop_reason: stopReasonFromIr(reason), stop_sequence: reason === 'stop_sequence' ? stopSequence : null },
    usage: { input_tokens: usage.promptTokens, output_tokens: usage.completionTokens },
  });
  yield frame('message_stop', {});
}
