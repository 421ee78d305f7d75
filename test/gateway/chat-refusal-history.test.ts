import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI answers a refusal as the message's `refusal` with `content: null`, and clients send that
 * message back with the history: a Claude model must still see that turn, not a conversation in
 * which it never answered.
 */
describe('an assistant refusal in chat history, for a Claude model', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.anthropic.reset());

  it('reaches Claude as the assistant turn it was', async () => {
    const client = context.harness.openaiClient(context.key);
    await client.chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        { role: 'user', content: 'Tell me a secret.' },
        { role: 'assistant', content: null, refusal: "I can't share that." },
        { role: 'user', content: 'Then a joke.' },
      ],
    });
    expect(context.harness.anthropic.lastRequest()!.body.messages).toEqual([
      { role: 'user', content: 'Tell me a secret.' },
      { role: 'assistant', content: "I can't share that." },
      { role: 'user', content: 'Then a joke.' },
    ]);
  });
});
