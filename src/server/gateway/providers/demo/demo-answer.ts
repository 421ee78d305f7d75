import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IrRequest, IrStopReason } from '../../formats/ir.js';
import { firstWordStart, tokenEnd, YIELD_CHARS } from './demo-tokenizer.js';

/** What the demo model answers: a span of the last user turn, read token by token. */
export interface DemoAnswer {
  /** The last user turn, cut at the first stop sequence. */
  readonly text: string;
  /** Where the answer starts in `text` (the answer never opens with whitespace). */
  readonly start: number;
  readonly maxTokens: number | undefined;
  /** Why it stops when every token of `text` was sent (`length` replaces it when max_tokens cuts it). */
  readonly stopReason: IrStopReason;
  readonly stopSequence: string | null;
}

/** How a read answer ended. */
export interface DemoEnd {
  readonly completionTokens: number;
  readonly stopReason: IrStopReason;
  readonly stopSequence: string | null;
}

/**
 * The echo model: the text of the last user turn (tool results included), cut at the first stop
 * sequence and at `maxTokens`, like a real model would be. Only the stop sequences are searched
 * here; tokens are read later, as the client takes them.
 */
export async function demoAnswer(request: IrRequest): Promise<DemoAnswer> {
  let text = lastUserText(request);
  let stopReason: IrStopReason = 'stop';
  let stopSequence: string | null = null;
  for (const stop of request.stop ?? []) {
    // Each search may scan a megabyte: let other requests run between them.
    if (text.length > YIELD_CHARS) await nextTurn();
    const at = stop === '' ? -1 : text.indexOf(stop);
    if (at !== -1) {
      text = text.slice(0, at);
      stopReason = 'stop_sequence';
      stopSequence = stop;
    }
  }
  return { text, start: firstWordStart(text), maxTokens: request.maxTokens, stopReason, stopSequence };
}

/**
 * The answer's tokens, produced one at a time as they are asked for (nothing is built for the
 * whole answer); the generator's return value says how it ended.
 */
export function* answerTokens(answer: DemoAnswer): Generator<string, DemoEnd, undefined> {
  const { text, maxTokens } = answer;
  let count = 0;
  for (let start = answer.start, end = tokenEnd(text, start); end !== -1; start = end, end = tokenEnd(text, end)) {
    if (maxTokens !== undefined && count === maxTokens)
      return { completionTokens: count, stopReason: 'length', stopSequence: null };
    count += 1;
    yield text.slice(start, end);
  }
  return { completionTokens: count, stopReason: answer.stopReason, stopSequence: answer.stopSequence };
}

/** The whole answer as one text, for a JSON answer; yields to the event loop on long texts. */
export async function answerText(answer: DemoAnswer): Promise<{ readonly text: string; readonly end: DemoEnd }> {
  const tokens = answerTokens(answer);
  let length = 0;
  let sinceYield = 0;
  for (let next = tokens.next(); ; next = tokens.next()) {
    if (next.done === true) return { text: answer.text.slice(answer.start, answer.start + length), end: next.value };
    length += next.value.length;
    sinceYield += next.value.length;
    if (sinceYield >= YIELD_CHARS) {
      sinceYield = 0;
      await nextTurn();
    }
  }
}

function lastUserText(request: IrRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index];
    if (message.role !== 'user') continue;
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'tool_result')
        for (const inner of part.content) if (inner.type === 'text') texts.push(inner.text);
    }
    return texts.join('\n');
  }
  return '';
}
