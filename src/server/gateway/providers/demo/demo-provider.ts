import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IrRequest, IrResponse, IrStreamEvent } from '../../formats/ir.js';
import { refuseUnknownToolChoice } from '../../formats/unknown-tool-choice.js';
import type { CallContext, IrChatProvider } from '../types.js';
import { UpstreamError } from '../upstream-error.js';
import { answerText, answerTokens, demoAnswer } from './demo-answer.js';
import { countDemoPromptTokens } from './demo-tokenizer.js';
import { refuseDemoEmbeddingsModelChat } from './demo-model-kind.js';

/**
 * The built-in offline provider (`demo/echo`): answers with the last user message, streams it word
 * by word and reports real token counts, so a fresh install works with no provider keys. Every
 * demo model name but the embeddings model (`demo/embed`, refused here) behaves as the echo model.
 */
export const demoChatProvider: IrChatProvider = {
  kind: 'ir',
  name: 'demo',
  async generate(request, context): Promise<IrResponse> {
    throwIfAborted(context);
    // The refusals of the providers it stands in for, so what works here works there.
    refuseDemoEmbeddingsModelChat(context.deployment, context.upstreamModel);
    refuseUnknownToolChoice(request);
    const promptTokens = await countDemoPromptTokens(request);
    const { text, end } = await answerText(await demoAnswer(request));
    // Long prompts yield to the event loop above; a client that left meanwhile gets nothing more.
    throwIfAborted(context);
    return {
      id: `demo-${randomUUID()}`,
      model: context.upstreamModel,
      content: text === '' ? [] : [{ type: 'text', text }],
      stopReason: end.stopReason,
      stopSequence: end.stopSequence,
      usage: { promptTokens, completionTokens: end.completionTokens },
    };
  },
  async stream(request, context) {
    throwIfAborted(context);
    refuseDemoEmbeddingsModelChat(context.deployment, context.upstreamModel);
    refuseUnknownToolChoice(request);
    return streamAnswer(request, context);
  },
};

/**
 * Each token is cut from the prompt only when the consumer asks for the next event, so a client
 * that stops reading holds the stream (through the writer's backpressure) at one pending token.
 */
async function* streamAnswer(request: IrRequest, context: CallContext): AsyncGenerator<IrStreamEvent> {
  yield { type: 'usage', usage: { promptTokens: await countDemoPromptTokens(request) } };
  const tokens = answerTokens(await demoAnswer(request));
  yield { type: 'start', id: `demo-${randomUUID()}`, model: context.upstreamModel };
  let next = tokens.next();
  for (; next.done !== true; next = tokens.next()) {
    // Yield to the event loop between words so the answer really streams.
    await nextTurn();
    throwIfAborted(context);
    yield { type: 'text', text: next.value };
  }
  yield { type: 'finish', stopReason: next.value.stopReason, stopSequence: next.value.stopSequence };
  yield { type: 'usage', usage: { completionTokens: next.value.completionTokens } };
}

/** Stops the demo's work once the client left, as an upstream call would be cancelled. */
export function throwIfAborted(context: Pick<CallContext, 'signal'>): void {
  if (context.signal.aborted)
    throw new UpstreamError('demo request aborted by the client', {
      status: 0,
      retryable: false,
      upstreamType: 'aborted',
    });
}
