import { DONE_FRAME, encodeEvent, type SseEvent } from '../../formats/sse.js';
import type { PiiRestorer } from './restorer.js';

// Events of three wire formats, read loosely: each field is checked where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The client formats whose streams the restore reads. */
export type StreamFormat = 'chat' | 'messages' | 'responses';

/**
 * Restores one request's streamed answer frame by frame, in the client's format. Deltas of text and
 * tool-call arguments go through the restorer's channels (one per choice and tool call, content
 * block, or output item); a channel that ends while holding a piece back gets it in a delta of its
 * own just before its end (chat: in the finishing chunk). Every other event is restored whole.
 * Frames that need nothing are passed on untouched, without parsing.
 */
export class StreamRestore {
  /** Chat: the envelope of the last chunk, for a chunk made at `[DONE]`. */
  private chatEnvelope: Json | undefined;
  /** What a channel's own delta looks like (its event's fields but the text), for a delta made at its end. */
  private readonly shapes = new Map<string, Json>();
  /** Responses: events added so far, by which later `sequence_number`s move on. */
  private added = 0;

  constructor(
    private readonly format: StreamFormat,
    private readonly restorer: PiiRestorer,
  ) {}

  /** The frame(s) to send for one frame of the answer. */
  frame(frame: string): string {
    if (!frame.includes('[') && !this.restorer.pending && this.added === 0) return frame;
    let out = '';
    for (const event of parseFrames(frame)) out += this.event(event);
    return out;
  }

  private event(event: SseEvent): string {
    if (event.data === '[DONE]') return this.chatEnd() + DONE_FRAME;
    let json: Json;
    try {
      json = JSON.parse(event.data) as Json;
    } catch {
      return encodeEvent(event);
    }
    switch (this.format) {
      case 'chat':
        return this.chatChunk(event, json);
      case 'messages':
        return this.messagesEvent(event, json);
      case 'responses':
        return this.responsesEvent(event, json);
      default:
        return this.format satisfies never;
    }
  }

  private chatChunk(event: SseEvent, chunk: Json): string {
    // An error ends the stream: what is held back goes before it, since nothing but `[DONE]` follows it.
    if (chunk.error != null && !Array.isArray(chunk.choices)) return this.chatEnd() + this.whole(event, chunk);
    if (!Array.isArray(chunk.choices)) return this.whole(event, chunk);
    this.chatEnvelope = { id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model };
    for (const choice of chunk.choices as Json[]) {
      const delta = choice.delta as Json | undefined;
      if (delta == null) continue;
      const prefix = `${choice.index ?? 0}:`;
      if (typeof delta.content === 'string') delta.content = this.restorer.delta(`${prefix}c`, delta.content);
      if (typeof delta.refusal === 'string') delta.refusal = this.restorer.delta(`${prefix}r`, delta.refusal);
      for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : []) {
        if (typeof call.function?.arguments === 'string')
          call.function.arguments = this.restorer.delta(`${prefix}t${call.index ?? 0}`, call.function.arguments);
      }
      // The legacy form of a tool call, streamed to clients that still send `functions`.
      if (typeof delta.function_call?.arguments === 'string')
        delta.function_call.arguments = this.restorer.delta(`${prefix}f`, delta.function_call.arguments);
      if (choice.finish_reason != null && this.restorer.pending) this.flushChoice(prefix, delta);
    }
    return encodeEvent({ ...event, data: JSON.stringify(chunk) });
  }

  /** Puts what a finishing choice's channels held back into its last chunk. */
  private flushChoice(prefix: string, delta: Json): void {
    for (const channel of [...this.restorer.holding()]) {
      if (!channel.startsWith(prefix)) continue;
      const text = this.restorer.flush(channel);
      const kind = channel.slice(prefix.length);
      if (kind === 'c') delta.content = (delta.content ?? '') + text;
      else if (kind === 'r') delta.refusal = (delta.refusal ?? '') + text;
      else if (kind === 'f')
        delta.function_call = { ...delta.function_call, arguments: (delta.function_call?.arguments ?? '') + text };
      else {
        const index = Number(kind.slice(1));
        const calls = (delta.tool_calls ??= []) as Json[];
        const call = calls.find((c) => c.index === index);
        if (call) call.function = { ...call.function, arguments: (call.function?.arguments ?? '') + text };
        else calls.push({ index, function: { arguments: text } });
      }
    }
  }

  /**
   * Chat streams that end without a finishing chunk (at `[DONE]`, or at an error chunk): what is held
   * back goes in a chunk of its own.
   */
  private chatEnd(): string {
    if (!this.restorer.pending) return '';
    const chunks: string[] = [];
    for (const channel of [...this.restorer.holding()]) {
      const [choice, kind] = channel.split(':') as [string, string];
      const delta: Json = {};
      const text = this.restorer.flush(channel);
      if (kind === 'c') delta.content = text;
      else if (kind === 'r') delta.refusal = text;
      else if (kind === 'f') delta.function_call = { arguments: text };
      else delta.tool_calls = [{ index: Number(kind.slice(1)), function: { arguments: text } }];
      const chunk = { ...this.chatEnvelope, choices: [{ index: Number(choice), delta, finish_reason: null }] };
      chunks.push(encodeEvent({ data: JSON.stringify(chunk) }));
    }
    return chunks.join('');
  }

  private messagesEvent(event: SseEvent, json: Json): string {
    if (json.type === 'content_block_delta') {
      const delta = json.delta as Json | undefined;
      const field = delta?.type === 'text_delta' ? 'text' : delta?.type === 'input_json_delta' ? 'partial_json' : '';
      if (field !== '' && typeof delta![field] === 'string') {
        const channel = String(json.index);
        delta![field] = this.restorer.delta(channel, delta![field]);
        if (!this.shapes.has(channel)) this.shapes.set(channel, { type: delta!.type, field });
        return encodeEvent({ ...event, data: JSON.stringify(json) });
      }
    }
    let before = '';
    if (json.type === 'content_block_stop') before = this.messagesFlush(String(json.index));
    // An error ends the stream as `message_stop` does: nothing may follow it.
    else if (json.type === 'message_stop' || json.type === 'error')
      for (const channel of [...this.restorer.holding()]) before += this.messagesFlush(channel);
    return before + this.whole(event, json);
  }

  private messagesFlush(channel: string): string {
    const text = this.restorer.flush(channel);
    const shape = this.shapes.get(channel);
    if (text === '' || shape === undefined) return '';
    const data = {
      type: 'content_block_delta',
      index: Number(channel),
      delta: { type: shape.type, [shape.field]: text },
    };
    return encodeEvent({ event: 'content_block_delta', data: JSON.stringify(data) });
  }

  private responsesEvent(event: SseEvent, json: Json): string {
    const type = String(json.type ?? '');
    let before = '';
    if (isRestoredDelta(type) && typeof json.delta === 'string') {
      const family = type.slice(0, -'.delta'.length);
      const channel = `${family}|${json.item_id}|${json.content_index ?? ''}`;
      json.delta = this.restorer.delta(channel, json.delta);
      if (!this.shapes.has(channel)) {
        const { delta: _delta, sequence_number: _sequence, logprobs: _logprobs, ...shape } = json;
        this.shapes.set(channel, shape);
      }
      this.renumber(json);
      return encodeEvent({ ...event, data: JSON.stringify(json) });
    }
    if (type.endsWith('.done') && this.restorer.pending) {
      const family = type.slice(0, -'.done'.length);
      before = this.responsesFlush(`${family}|${json.item_id}|${json.content_index ?? ''}`, json);
    } else if (RESPONSE_ENDS.has(type) && this.restorer.pending) {
      for (const channel of [...this.restorer.holding()]) before += this.responsesFlush(channel, json);
    }
    if (this.added === 0) return before + this.whole(event, json);
    this.renumber(json);
    return before + encodeEvent({ ...event, data: JSON.stringify(this.restorer.value(json)) });
  }

  /** A delta event carrying what a channel held back, numbered where the event that ends it was. */
  private responsesFlush(channel: string, ending: Json): string {
    const text = this.restorer.flush(channel);
    const shape = this.shapes.get(channel);
    if (text === '' || shape === undefined) return '';
    const sequence = typeof ending.sequence_number === 'number' ? ending.sequence_number + this.added : undefined;
    this.added += 1;
    const data = { ...shape, ...(sequence !== undefined ? { sequence_number: sequence } : {}), delta: text };
    if (shape.type === 'response.output_text.delta') Object.assign(data, { logprobs: [] });
    return encodeEvent({ event: String(shape.type), data: JSON.stringify(data) });
  }

  private renumber(json: Json): void {
    if (this.added > 0 && typeof json.sequence_number === 'number') json.sequence_number += this.added;
  }

  /** An event restored as a whole, the model's reasoning excepted; untouched when it holds no placeholder. */
  private whole(event: SseEvent, json: Json): string {
    if (!event.data.includes('[')) return encodeEvent(event);
    return encodeEvent({ ...event, data: JSON.stringify(this.restorer.value(json)) });
  }
}

/**
 * Responses delta events whose text the client reads: every `*.delta` with a text `delta` (output
 * text, refusals, function, custom tool and MCP call arguments, interpreter code, audio transcripts),
 * but the model's reasoning. A placeholder is often cut between two deltas, so each is a channel.
 */
function isRestoredDelta(type: string): boolean {
  return type.endsWith('.delta') && !type.startsWith('response.reasoning');
}

/** Responses events after which no delta comes (an `error` event ends the stream too). */
const RESPONSE_ENDS: ReadonlySet<string> = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
]);

/** The events of one or more SSE frames as the gateway writes them (`event:` and `data:` lines, blank line between). */
export function parseFrames(frames: string): SseEvent[] {
  const events: SseEvent[] = [];
  let name: string | undefined;
  let data: string[] = [];
  for (const line of frames.split('\n')) {
    if (line === '') {
      if (data.length > 0)
        events.push(name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') });
      name = undefined;
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    else if (line.startsWith('event:')) name = line.slice(line.startsWith('event: ') ? 7 : 6);
  }
  if (data.length > 0)
    events.push(name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') });
  return events;
}
