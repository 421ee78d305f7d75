import { encodeEvent, type SseEvent } from '../../formats/sse.js';
import type { Usage } from '../../formats/ir.js';
import { parseFrames, type StreamFormat } from '../pii/stream-restore.js';
import type { BlockedPattern } from '../rules.js';
import { chatStopped, messagesStopped, responsesStopped } from './answer-stream-endings.js';
import { firstMatch } from './pattern-match.js';

// Events of three wire formats, read loosely: each field is checked where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * How much of a channel's text already sent is read again with each new delta (characters). A match
 * must fit in this tail plus the delta; each delta costs at most this much re-reading, so a long
 * answer is never rescanned from its start.
 */
export const ANSWER_WINDOW_CHARS = 4096;

/** Where a stream's delta completed a match of an answer pattern. */
export interface StreamStop {
  readonly pattern: BlockedPattern;
  readonly where: string;
}

/** One text delta of an event: its channel (one text or one tool call's arguments) and where it is. */
interface Delta {
  readonly channel: string;
  readonly text: string;
  readonly where: string;
}

/**
 * Checks a streamed answer, frame by frame in the client's format, against the answer patterns. Each
 * delta of text, refusal or tool-call arguments is read with the tail of its channel's text so far
 * ({@link ANSWER_WINDOW_CHARS}). The event whose delta completes a match is not sent: the format's
 * content-filter ending goes in its place, and nothing after it.
 */
export class AnswerStreamCheck {
  /** Set once a delta completed a match; the stream ends there. */
  stop: StreamStop | undefined;
  /** The frames written in place of the stopped event (for the traffic record). */
  ending = '';
  private readonly tails = new Map<string, string>();
  private envelope: Json = { object: 'chat.completion.chunk' };
  private readonly openChoices = new Set<number>();
  private readonly openBlocks = new Set<number>();
  private response: Json | undefined;
  private sequence = -1;

  constructor(
    private readonly format: StreamFormat,
    private readonly patterns: readonly BlockedPattern[],
    private readonly usage: () => Usage,
    private readonly includeUsage: boolean,
  ) {}

  /** The frame to send: the frame itself, or what precedes the stopped event and the ending. */
  frame(frame: string): string {
    if (this.stop !== undefined) return '';
    const events = parseFrames(frame);
    for (const [index, event] of events.entries()) {
      if (!this.passes(event)) {
        this.ending = this.end();
        return events.slice(0, index).map(encodeEvent).join('') + this.ending;
      }
    }
    return frame;
  }

  /** Reads one event; false when one of its deltas completes a match. */
  private passes(event: SseEvent): boolean {
    if (event.data === '[DONE]') return true;
    let json: Json;
    try {
      json = JSON.parse(event.data) as Json;
    } catch {
      return true;
    }
    if (json === null || typeof json !== 'object') return true;
    for (const delta of this.deltas(json)) {
      const text = (this.tails.get(delta.channel) ?? '') + delta.text;
      const pattern = firstMatch(this.patterns, text);
      if (pattern !== undefined) {
        this.stop = { pattern, where: delta.where };
        return false;
      }
      this.tails.set(delta.channel, text.length > ANSWER_WINDOW_CHARS ? text.slice(-ANSWER_WINDOW_CHARS) : text);
    }
    this.track(json);
    return true;
  }

  private deltas(json: Json): Delta[] {
    const deltas: Delta[] = [];
    const add = (channel: string, text: unknown, where: string): void => {
      if (typeof text === 'string' && text !== '') deltas.push({ channel, text, where });
    };
    switch (this.format) {
      case 'chat':
        for (const choice of Array.isArray(json.choices) ? (json.choices as Json[]) : []) {
          const delta = choice?.delta as Json | undefined;
          if (delta == null) continue;
          const at = `choices[${choice.index ?? 0}].delta`;
          add(`${choice.index ?? 0}:c`, delta.content, `${at}.content`);
          add(`${choice.index ?? 0}:r`, delta.refusal, `${at}.refusal`);
          for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : [])
            add(
              `${choice.index ?? 0}:t${call?.index ?? 0}`,
              call?.function?.arguments,
              `${at}.tool_calls[${call?.index ?? 0}].function.arguments`,
            );
          add(`${choice.index ?? 0}:f`, delta.function_call?.arguments, `${at}.function_call.arguments`);
        }
        return deltas;
      case 'messages':
        if (json.type === 'content_block_start')
          add(String(json.index), json.content_block?.text, 'content_block_start');
        if (json.type === 'content_block_delta')
          add(String(json.index), json.delta?.text ?? json.delta?.partial_json, `content_block_delta ${json.index}`);
        return deltas;
      case 'responses': {
        const type = String(json.type ?? '');
        if (type.endsWith('.delta') && !type.startsWith('response.reasoning'))
          add(`${type}|${json.item_id}|${json.content_index ?? ''}`, json.delta, `${type} ${json.output_index ?? ''}`);
        return deltas;
      }
      default:
        return this.format satisfies never;
    }
  }

  /** What the ending needs: the chat envelope and open choices, open Messages blocks, the Response and its numbering. */
  private track(json: Json): void {
    switch (this.format) {
      case 'chat':
        if (!Array.isArray(json.choices)) return;
        this.envelope = { id: json.id, object: json.object, created: json.created, model: json.model };
        for (const choice of json.choices as Json[]) {
          const index = typeof choice?.index === 'number' ? choice.index : 0;
          if (choice?.finish_reason != null) this.openChoices.delete(index);
          else this.openChoices.add(index);
        }
        return;
      case 'messages':
        if (json.type === 'content_block_start' && typeof json.index === 'number') this.openBlocks.add(json.index);
        else if (json.type === 'content_block_stop') this.openBlocks.delete(json.index as number);
        return;
      case 'responses':
        if (typeof json.sequence_number === 'number') this.sequence = json.sequence_number;
        if (json.response !== null && typeof json.response === 'object') this.response = json.response as Json;
        return;
      default:
        this.format satisfies never;
    }
  }

  private end(): string {
    switch (this.format) {
      case 'chat': {
        const open = this.openChoices.size === 0 ? [0] : [...this.openChoices];
        return chatStopped(this.envelope, open, this.usage(), this.includeUsage);
      }
      case 'messages':
        return messagesStopped([...this.openBlocks], this.usage());
      case 'responses':
        return responsesStopped(this.response, this.sequence + 1, this.usage());
      default:
        return this.format satisfies never;
    }
  }
}
