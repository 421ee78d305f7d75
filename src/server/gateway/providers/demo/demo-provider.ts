import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IrRequest, IrResponse, IrStreamEvent } from '../../formats/ir.js';
import type { CallContext, IrChatProvider } from '../types.js';
import { UpstreamError } from '../upstream-error.js';
import { demoAnswer } from './demo-answer.js';
import { countDemoPromptTokens } from './demo-tokenizer.js';

/**
 * The built-in offline provider (`demo/echo`): answers with the last user message, streams it word
 * by word and reports real token counts, so a fresh install works with no provider keys. Every
 * demo model name behaves as the echo model.
 */
export const demoChatProvider: IrChatProvider = {
  kind: 'ir',
  name: 'demo',
  async generate(request, context): Promise<IrResponse> {
    throwIfAborted(context);
    const answer = demoAnswer(request);
    return {
      id: `demo-${randomUUID()}`,
      model: context.upstreamModel,
      content: answer.tokens.length === 0 ? [] : [{ type: 'text', text: answer.tokens.join('') }],
      stopReason: answer.stopReason,
      stopSequence: answer.stopSequence,
      usage: { promptTokens: countDemoPromptTokens(request), completionTokens: answer.tokens.length },
    };
  },
  async stream(request, context) {
    throwIfAborted(context);
    return streamAnswer(request, context);
  },
};

async function* streamAnswer(request: IrRequest, context: CallContext): AsyncGenerator<IrStreamEvent> {
  const answer = demoAnswer(request);
  yield { type: 'usage', usage: { promptTokens: countDemoPromptTokens(request) } };
  yield { type: 'start', id: `demo-${randomUUID()}`, model: context.upstreamModel };
  for (const token of answer.tokens) {
    // Yield to the event loop between words so the answer really streams.
    await nextTurn();
    throwIfAborted(context);
    yield { type: 'text', text: token };
  }
  yield { type: 'finish', stopReason: answer.stopReason, stopSequence: answer.stopSequence };
  yield { type: 'usage', usage: { completionTokens: answer.tokens.length } };
}

function throwIfAborted(context: CallContext): void {
  if (context.signal.aborted)
    throw new UpstreamError('demo request aborted by the client', {
      status: 0,
      retryable: false,
      upstreamType: 'aborted',
    });
}
