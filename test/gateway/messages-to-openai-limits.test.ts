import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * A Messages request for an OpenAI model carries only what chat completions takes: OpenAI refuses a
 * tool_choice without tools and more than four stop sequences, and its refusal would reach the client
 * as a 502 about a body it never wrote.
 */
describe('Messages to an OpenAI model: fields OpenAI would refuse', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.openai.reset());
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('drops a tool_choice that chooses nothing without tools, and refuses one that must choose', async () => {
    const client = context.harness.anthropicClient(context.key);
    await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 20, messages, tool_choice: { type: 'none' } });
    expect(context.harness.openai.lastRequest()!.body).not.toHaveProperty('tool_choice');
    const any = await client.messages
      .create({ model: 'gpt-4o-mini', max_tokens: 20, messages, tool_choice: { type: 'any' } })
      .catch((error: unknown) => error);
    expect(any).toBeInstanceOf(Anthropic.BadRequestError);
    expect((any as Error).message).toContain('tool_choice: a tool must be chosen, but the request has no tools');
  });

  it('refuses more than four stop sequences, naming the limit', async () => {
    const client = context.harness.anthropicClient(context.key);
    const five = await client.messages
      .create({ model: 'gpt-4o-mini', max_tokens: 20, messages, stop_sequences: ['a', 'b', 'c', 'd', 'e'] })
      .catch((error: unknown) => error);
    expect(five).toBeInstanceOf(Anthropic.BadRequestError);
    expect((five as Error).message).toContain('stop_sequences: OpenAI models take at most 4 stop sequences, got 5');
    await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 20,
      messages,
      stop_sequences: ['a', 'b', 'c', 'd'],
    });
    expect(context.harness.openai.lastRequest()!.body).toMatchObject({ stop: ['a', 'b', 'c', 'd'] });
  });
});
