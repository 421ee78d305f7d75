import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A function call needs its output before the conversation goes on, and a forced function must be
 * one of the tools: OpenAI refuses both with a 400. Translated for a Claude or chat model they reached
 * the provider, which refused them too, and the client got a 502.
 */
describe('Responses: a function call without its output', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  const refusal = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);
  const call = { type: 'function_call' as const, call_id: 'call_7', name: 'weather', arguments: '{"city":"Oslo"}' };
  const tools = [
    { type: 'function' as const, name: 'weather', parameters: { type: 'object', properties: {} }, strict: false },
  ];

  it('in the input is the client 400 naming the call, before any upstream call', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      const failure = await refusal(
        c.openai.responses.create({
          model,
          input: [{ role: 'user', content: 'Weather?' }, call, { role: 'user', content: 'Well?' }],
        }),
      );
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as Error).message).toContain('input[1]: No tool output found for function call call_7');
    }
    expect(c.h.anthropic.requests).toHaveLength(0);
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('made by the previous response and followed by a plain message is refused naming the call', async () => {
    c.h.openai.setNext({ reply: { toolCalls: [{ id: 'call_up1', name: 'weather', arguments: { city: 'Oslo' } }] } });
    const first = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'Weather?', tools, store: true });
    expect(first.output[0]).toMatchObject({ type: 'function_call', call_id: 'call_up1' });
    c.h.openai.reset();

    const failure = await refusal(
      c.openai.responses.create({
        model: 'claude-opus-4-7',
        input: 'Never mind',
        previous_response_id: first.id,
        tools,
      }),
    );
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain("previous_response_id's conversation, item 1: No tool output found");
    expect((failure as Error).message).toContain('call_up1');
    expect(c.h.anthropic.requests).toHaveLength(0);

    const answered = await c.openai.responses.create({
      model: 'claude-opus-4-7',
      input: [{ type: 'function_call_output', call_id: 'call_up1', output: 'sunny' }],
      previous_response_id: first.id,
      tools,
    });
    expect(answered.status).toBe('completed');
  });

  it('is accepted with its output after it', async () => {
    const answered = await c.openai.responses.create({
      model: 'gpt-4o-mini',
      input: [call, { type: 'function_call_output', call_id: 'call_7', output: 'sunny' }],
      tools,
    });
    expect(answered.status).toBe('completed');
  });
});

describe('Responses: a tool_choice naming a function not in tools', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  it('is the client 400 naming tool_choice, before any upstream call', async () => {
    const tools = [{ type: 'function' as const, name: 'weather', parameters: {}, strict: false }];
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      for (const toolsSent of [tools, undefined]) {
        const failure = await c.openai.responses
          .create({ model, input: 'hi', tools: toolsSent, tool_choice: { type: 'function', name: 'clock' } })
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
        expect((failure as Error).message).toContain('tool_choice.name: no function named "clock" in tools');
      }
    }
    expect(c.h.anthropic.requests).toHaveLength(0);
    expect(c.h.openai.requests).toHaveLength(0);
  });
});
