import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A function call's output must answer a call the conversation holds, as OpenAI requires. Translated
 * for a Claude or chat model, an orphan reached the provider as a tool result nobody asked for, with a
 * made-up tool beside it, and came back from its refusal as a 502 the SDK retried.
 */
describe('Responses: a function call output without its call', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  const orphan = [
    { role: 'user' as const, content: 'What is the weather?' },
    { type: 'function_call_output' as const, call_id: 'call_9', output: 'sunny' },
  ];

  it('is the client 400 naming the item, before any upstream call, on Claude and chat models', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      const failure = await c.openai.responses.create({ model, input: orphan }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as Error).message).toContain('input[1].call_id: no function call with call_id "call_9"');
    }
    expect(c.h.anthropic.requests).toHaveLength(0);
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('is accepted with its call before it in the input', async () => {
    const call = { type: 'function_call' as const, call_id: 'call_9', name: 'weather', arguments: '{}' };
    const answered = await c.openai.responses.create({
      model: 'claude-opus-4-7',
      input: [orphan[0]!, call, orphan[1]!],
    });
    expect(answered.status).toBe('completed');
    expect(c.h.anthropic.lastRequest()!.body.messages.at(-1).content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'call_9',
    });
  });

  it('names the input for a model served over Messages when every turn is blank', async () => {
    const failure = await c.openai.responses
      .create({ model: 'claude-opus-4-7', input: ' \n ' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain('input: has no user or assistant turn');
  });
});
