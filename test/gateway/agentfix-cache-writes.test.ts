import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Claude bills prompt tokens written to its cache above plain input; OpenAI's formats have no field
 * for them. A chat or Responses client of a Claude model gets them as LiteLLM reports them,
 * `usage.cache_creation_input_tokens`, beside the cache reads in `cached_tokens`.
 */
describe('cache writes of a Claude model in OpenAI-format usage', () => {
  const context = harnessWithKey();

  const claudeWritingCache = () =>
    context.harness.anthropic.setNext({
      reply: {
        text: 'ok',
        usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 80, cache_creation_input_tokens: 300 },
      },
    });

  it('reach a chat completion, the reads still in prompt_tokens_details', async () => {
    claudeWritingCache();
    const completion = await context.harness.openaiClient(context.key).chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 390,
      prompt_tokens_details: { cached_tokens: 80 },
      cache_creation_input_tokens: 300,
    });
  });

  it("reach a chat stream's usage chunk", async () => {
    claudeWritingCache();
    const stream = await context.harness.openaiClient(context.key).chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: unknown;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 390, cache_creation_input_tokens: 300 });
  });

  it('reach a Response', async () => {
    claudeWritingCache();
    const response = await context.harness
      .openaiClient(context.key)
      .responses.create({ model: 'claude-opus-4-7', input: 'hi' });
    expect(response.usage).toMatchObject({
      input_tokens: 390,
      input_tokens_details: { cached_tokens: 80 },
      cache_creation_input_tokens: 300,
    });
  });

  it('are left out where nothing was written', async () => {
    const completion = await context.harness.openaiClient(context.key).chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.usage).not.toHaveProperty('cache_creation_input_tokens');
  });
});
