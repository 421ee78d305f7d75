import type { IrRequest, IrStopReason } from '../../formats/ir.js';
import { demoTokens } from './demo-tokenizer.js';

/** What the demo model answers: its tokens and why it stopped. */
export interface DemoAnswer {
  readonly tokens: readonly string[];
  readonly stopReason: IrStopReason;
  readonly stopSequence: string | null;
}

/**
 * The echo model: the text of the last user turn (tool results included), cut at the first stop
 * sequence and at `maxTokens`, like a real model would be.
 */
export function demoAnswer(request: IrRequest): DemoAnswer {
  let text = lastUserText(request);
  let stopReason: IrStopReason = 'stop';
  let stopSequence: string | null = null;
  for (const stop of request.stop ?? []) {
    const at = stop === '' ? -1 : text.indexOf(stop);
    if (at !== -1) {
      text = text.slice(0, at);
      stopReason = 'stop_sequence';
      stopSequence = stop;
    }
  }
  let tokens = demoTokens(text);
  if (tokens.length > 0 && tokens[0] !== tokens[0].trimStart()) tokens = [tokens[0].trimStart(), ...tokens.slice(1)];
  if (request.maxTokens !== undefined && tokens.length > request.maxTokens) {
    tokens = tokens.slice(0, request.maxTokens);
    stopReason = 'length';
    stopSequence = null;
  }
  return { tokens, stopReason, stopSequence };
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
