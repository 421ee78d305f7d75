import type { IrStopReason, IrStreamEvent, Usage } from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { eventFrame } from '../sse.js';
import { ContentBlockOrder, type BlockStep } from './content-block-order.js';
import { messageId, messagesUsageFromIr, refusedStop, stopReasonFromIr } from './messages-response-ir.js';
import { UNSIGNED } from './thinking.js';
import { toolUseId } from './tool-id.js';

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
 * `content_block_delta`... / `content_block_stop` run per thinking, text or tool_use block
 * (interleaved tool calls are put in order by ContentBlockOrder), then `message_delta` (stop reason,
 * final usage) and `message_stop`. The final usage goes out last because OpenAI-compatible upstreams report it after
 * their finish chunk.
 */
export async function* encodeMessagesStream(
  events: AsyncIterable<IrStreamEvent>,
  options: MessagesStreamOptions,
): AsyncGenerator<string> {
  let id = options.id;
  let started = false;
  let blockIndex = -1;
  const blocks = new ContentBlockOrder();
  let stopReason: IrStopReason | undefined;
  let stopSequence: string | null = null;
  let sawTool = false;
  let refused = false;

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
        usage: messagesUsageFromIr({ ...options.usage(), completionTokens: 0 }),
      },
    });
  };
  const frames = (steps: readonly BlockStep[]): string[] =>
    steps.map((step) => {
      switch (step.step) {
        case 'start_text':
          blockIndex += 1;
          return frame('content_block_start', { index: blockIndex, content_block: { type: 'text', text: '' } });
        case 'start_tool':
          blockIndex += 1;
          return frame('content_block_start', {
            index: blockIndex,
            content_block: { type: 'tool_use', id: toolUseId(step.id), name: step.name, input: {} },
          });
        case 'start_thinking':
          // No signature_delta follows: the reasoning of a model other than Claude is not signed.
          blockIndex += 1;
          return frame('content_block_start', {
            index: blockIndex,
            content_block: { type: 'thinking', thinking: '', signature: UNSIGNED },
          });
        case 'text':
          return frame('content_block_delta', { index: blockIndex, delta: { type: 'text_delta', text: step.text } });
        case 'thinking':
          return frame('content_block_delta', {
            index: blockIndex,
            delta: { type: 'thinking_delta', thinking: step.text },
          });
        case 'json':
          return frame('content_block_delta', {
            index: blockIndex,
            delta: { type: 'input_json_delta', partial_json: step.json },
          });
        case 'stop':
          return frame('content_block_stop', { index: blockIndex });
        default:
          return assertNever(step, 'block step');
      }
    });

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
        if (event.refusal === true) refused = true;
        yield* frames(blocks.text(event.text));
        break;
      case 'reasoning':
        if (!started) yield start();
        yield* frames(blocks.text(event.text, 'thinking'));
        break;
      case 'tool_call_start':
        if (!started) yield start();
        sawTool = true;
        yield* frames(blocks.toolStart(event.index, event.id, event.name));
        break;
      case 'tool_call_delta':
        yield* frames(blocks.toolDelta(event.index, event.arguments));
        break;
      case 'finish':
        stopReason = event.stopReason;
        stopSequence = event.stopSequence;
        break;
      case 'usage':
      case 'signed_thinking':
        break;
      case 'keepalive':
        if (started) yield frame('ping', {});
        break;
      default:
        assertNever(event, 'stream event');
    }
  }
  if (!started) yield start();
  yield* frames(blocks.end(stopReason === 'length'));
  const reason = refusedStop(stopReason ?? (sawTool ? 'tool_calls' : 'stop'), refused);
  const usage = options.usage();
  yield frame('message_delta', {
    delta: { stop_reason: stopReasonFromIr(reason), stop_sequence: reason === 'stop_sequence' ? stopSequence : null },
    usage: messagesUsageFromIr(usage),
  });
  yield frame('message_stop', {});
}
