import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

// The part of a prompt the provider read from its cache reaches the client in its own format's field
// when the gateway translates: Anthropic's cache_read_input_tokens is OpenAI's cached_tokens.
describe('cached prompt tokens across formats', () => {
  const context = harnessWithKey();

  const claudeWithCache = () =>
    context.harness.anthropic.setNext({
      reply: {
        text: 'ok',
        usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 80 },
      },
    });

  it('chat completions from Claude carry prompt_tokens_details.cached_tokens', async () => {
    claudeWithCache();
    const completion = await context.harness.openaiClient(context.key).chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 90, prompt_tokens_details: { cached_tokens: 80 } });
  });

  it('Responses from Claude carry input_tokens_details.cached_tokens', async () => {
    claudeWithCache();
    const response = await context.harness
      .openaiClient(context.key)
      .responses.create({ model: 'claude-opus-4-7', input: 'hi' });
    expect(response.usage).toMatchObject({ input_tokens: 90, input_tokens_details: { cached_tokens: 80 } });
  });

  it('Messages from an OpenAI model carry cache_read_input_tokens beside input_tokens', async () => {
    context.harness.openai.setNext({
      reply: {
        text: 'ok',
        usage: { prompt_tokens: 100, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 64 } },
      },
    });
    const message = await context.harness.anthropicClient(context.key).messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.usage).toMatchObject({ input_tokens: 36, cache_read_input_tokens: 64, output_tokens: 2 });
  });
});
