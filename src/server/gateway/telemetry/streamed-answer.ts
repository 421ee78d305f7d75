import type { Attributes } from '@opentelemetry/api';
import { finishReasonsOf } from './finish-reasons.js';
import { GEN_AI } from './gen-ai-attributes.js';

/**
 * A frame that may say why the answer stopped: a chat chunk's `finish_reason` or `refusal`, a Claude
 * message's `stop_reason` (its `message_start` says `null`, which this does not match), or a Response's
 * last event. Quotes inside a JSON string are escaped, so answer text never matches. Only these
 * frames (and the first) are parsed: the others pass with one regular expression test.
 */
const ENDING =
  /"(?:finish_reason|stop_reason|refusal)"\s*:\s*"|"type"\s*:\s*"response\.(?:completed|incomplete|failed)"/;

/** A Response's last event, whose `response` is the whole Response as a non-streamed answer is. */
const LAST_RESPONSE_EVENT = /^response\.(?:completed|incomplete|failed)$/;

type Frame = {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly choices?: unknown;
  readonly message?: { readonly id?: unknown } | null;
  readonly delta?: { readonly stop_reason?: unknown } | null;
  readonly response?: ({ readonly id?: unknown } & object) | null;
};

type ChunkChoice = {
  readonly index?: unknown;
  readonly finish_reason?: unknown;
  readonly delta?: { readonly refusal?: unknown } | null;
} | null;

/**
 * What the upstream span of a stream records of its answer, read from the frames as the client gets
 * them (chat chunks, Messages events or Responses events, whichever endpoint asked): the answer's id
 * and why it stopped, in the same words as for a whole answer ({@link finishReasonsOf}). Never text.
 * Made only when the request is traced.
 */
export class StreamedAnswer {
  #id: string | undefined;
  #firstRead = false;
  readonly #choices = new Map<number, { reason?: string; refused: boolean }>();
  #stopReason: string | undefined;
  #response: object | undefined;

  /** Reads one frame as it passes to the client. */
  read(frame: string): void {
    if (!this.#firstRead) {
      const data = dataOf(frame);
      if (data === undefined) return;
      this.#firstRead = true;
      this.#id = idOf(data);
      this.#note(data);
      return;
    }
    if (!ENDING.test(frame)) return;
    const data = dataOf(frame);
    if (data !== undefined) this.#note(data);
  }

  #note(data: Frame): void {
    if (Array.isArray(data.choices)) {
      for (const choice of data.choices as readonly ChunkChoice[]) {
        const index = typeof choice?.index === 'number' ? choice.index : 0;
        const seen = this.#choices.get(index) ?? { refused: false };
        if (typeof choice?.finish_reason === 'string') seen.reason = choice.finish_reason;
        const refusal = choice?.delta?.refusal;
        if (typeof refusal === 'string' && refusal !== '') seen.refused = true;
        this.#choices.set(index, seen);
      }
    } else if (data.type === 'message_delta' && typeof data.delta?.stop_reason === 'string') {
      this.#stopReason = data.delta.stop_reason;
    } else if (
      typeof data.type === 'string' &&
      LAST_RESPONSE_EVENT.test(data.type) &&
      typeof data.response === 'object'
    ) {
      this.#response = data.response ?? undefined;
      this.#id ??= idOf({ response: data.response });
    }
  }

  /** `gen_ai.response.id` and `gen_ai.response.finish_reasons`, as far as the frames said them. */
  attributes(): Attributes {
    const attributes: Attributes = {};
    if (this.#id !== undefined) attributes[GEN_AI.responseId] = this.#id;
    const whole = this.#asWholeAnswer();
    const reasons = whole === undefined ? [] : finishReasonsOf(whole);
    if (reasons.length > 0) attributes[GEN_AI.finishReasons] = reasons;
    return attributes;
  }

  /** The parts of a whole answer that say why it stopped, as the streamed frames gave them. */
  #asWholeAnswer(): object | undefined {
    if (this.#response !== undefined) return this.#response;
    if (this.#stopReason !== undefined) return { stop_reason: this.#stopReason };
    if (this.#choices.size === 0) return undefined;
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, seen]) => ({ finish_reason: seen.reason, message: seen.refused ? { refusal: 'refused' } : null }));
    return { choices };
  }
}

/** The JSON of a frame's `data` lines, or undefined (a comment, `[DONE]`, anything unreadable). */
function dataOf(frame: string): Frame | undefined {
  let data: string | undefined;
  for (const line of frame.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line.startsWith('data: ') ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  if (data === undefined || data === '[DONE]') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Frame) : undefined;
  } catch {
    return undefined;
  }
}

/** The answer's id: a chat chunk's, a Claude `message_start`'s message's, a Responses event's response's. */
function idOf(data: Frame): string | undefined {
  const id = data.id ?? data.message?.id ?? data.response?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
