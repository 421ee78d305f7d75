import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * A Messages request for an OpenAI-wire model carries only what chat completions takes: a tool_choice
 * without tools is refused (it would reach the client as a 502 about a body it never wrote). The harness
 * serves `gpt-4o-mini` from a local address, an OpenAI-compatible server, which takes more than four
 * stop sequences; OpenAI itself (api.openai.com) keeps its limit of four (translation-fidelity-s25).
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

  it('sends five stop sequences to an OpenAI-compatible server, which takes them', async () => {
    const client = context.harness.anthropicClient(context.key);
    await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 20,
      messages,
      stop_sequences: ['a', 'b', 'c', 'd', 'e'],
    });
    expect(context.harness.openai.lastRequest()!.body).toMatchObject({ stop: ['a', 'b', 'c', 'd', 'e'] });
  });
});
