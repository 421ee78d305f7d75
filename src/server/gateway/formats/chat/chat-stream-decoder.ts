import type { IrRequest, IrStreamEvent } from '../ir.js';
import type { SseEvent } from '../sse.js';
import { streamEndedEarly } from '../stream-ended-early.js';
import { malformedFrame, StreamError } from '../stream-error.js';
import { isObject } from '../translation-error.js';
import { chatReasoningOf } from './chat-reasoning.js';
import { chatUsageToIr, finishReasonToIr, toolArgumentsText, toolNameOf } from './chat-response-ir.js';
import { StreamedToolCalls } from './streamed-tool-calls.js';
import { chatToolNames } from './tool-names.js';

/**
 * Decodes an upstream chat completions stream (chunks, then `[DONE]`) into IR events; `request`, the
 * IR the upstream was sent, gives tool calls back the names the client wrote. A body that ends with
 * neither `[DONE]` nor a finish_reason was cut off, and fails as a stream error.
 */
export async function* decodeChatStream(
  events: AsyncIterable<SseEvent>,
  request?: IrRequest,
): AsyncGenerator<IrStreamEvent> {
  const restored = request === undefined ? undefined : chatToolNames(request)?.restored;
  let started = false;
  let finished = false;
  const toolCalls = new StreamedToolCalls();
  for await (const event of events) {
    if (event.data === '[DONE]') return;
    if (event.data.trim() === '') continue;
    const chunk = parseChatChunk(event.data);
    if (chunk.error != null) throw chatStreamError(chunk.error);
    if (!started) {
      started = true;
      yield {
        type: 'start',
        id: typeof chunk.id === 'string' ? chunk.id : '',
        model: typeof chunk.model === 'string' ? chunk.model : '',
      };
    }
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (choice) {
      const delta = (choice.delta ?? {}) as Record<string, unknown>;
      // A chunk holding both puts the reasoning first, as the whole answer has it.
      const reasoning = chatReasoningOf(delta);
      if (reasoning !== undefined) yield { type: 'reasoning', text: reasoning };
      if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', text: delta.content };
      else if (typeof delta.refusal === 'string' && delta.refusal !== '')
        yield { type: 'text', text: delta.refusal, refusal: true };
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isObject(call)) continue;
        const fn = call.function as { name?: unknown; arguments?: unknown } | undefined;
        const { key, id } = toolCalls.keyOf(call);
        if (id !== undefined) yield { type: 'tool_call_start', index: key, id, name: toolNameOf(fn?.name, restored) };
        const args = toolArgumentsText(fn?.arguments);
        if (args !== '') {
          toolCalls.append(key, args);
          yield { type: 'tool_call_delta', index: key, arguments: args };
        }
      }
      if (choice.finish_reason != null) {
        // Some compatible servers answer tool calls with finish_reason "stop".
        const stopReason =
          toolCalls.size > 0 && choice.finish_reason === 'stop' ? 'tool_calls' : finishReasonToIr(choice.finish_reason);
        finished = true;
        yield { type: 'finish', stopReason, stopSequence: null };
      }
    }
    const usage = chatUsageToIr(chunk.usage);
    if (usage) yield { type: 'usage', usage };
  }
  if (!finished) throw streamEndedEarly(CHAT_STREAM_END);
}

/** What finishes a chat stream, for the message of one that ended without it. */
export const CHAT_STREAM_END = 'a finish_reason or [DONE]';

/**
 * Which choices of a relayed chat stream have finished (`n` > 1 streams each choice by its index).
 * A compatible server may end its body after the last finish_reason without `[DONE]`: complete all the same.
 */
export class ChoiceFinishes {
  private readonly open = new Set<number>();
  private finishedAny = false;

  /** Notes a chunk's choices. */
  note(chunk: Record<string, unknown>): void {
    if (!Array.isArray(chunk.choices)) return;
    for (const choice of chunk.choices as Array<Record<string, unknown> | null>) {
      const index = typeof choice?.index === 'number' ? choice.index : 0;
      if (choice?.finish_reason != null) {
        this.open.delete(index);
        this.finishedAny = true;
      } else this.open.add(index);
    }
  }

  /** True once some choice finished and none is still open. */
  get complete(): boolean {
    return this.finishedAny && this.open.size === 0;
  }
}

/** Parses one chunk, failing as a stream error (bad gateway) when it is not JSON. */
export function parseChatChunk(data: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data);
    if (value !== null && typeof value === 'object') return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw malformedFrame('chunk', data);
}

/** The error a chat stream chunk `{"error": {...}}` reports. */
export function chatStreamError(error: unknown): StreamError {
  const body = (error ?? {}) as Record<string, unknown>;
  const message = typeof body.message === 'string' ? body.message : JSON.stringify(error);
  const type = typeof body.type === 'string' ? body.type : 'server_error';
  const code = typeof body.code === 'number' ? body.code : 500;
  return new StreamError(message, code, type);
}
