import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI clients often send `temperature` and `top_p` together, which Claude models since Opus 4.1
 * refuse ("use only one"): a chat or Responses client of a Claude model gets its answer, sampled at
 * its temperature.
 */
describe('temperature and top_p together, for a Claude model', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.anthropic.reset());

  it('send the temperature alone from chat completions', async () => {
    const client = context.harness.openaiClient(context.key);
    const completion = await client.chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'Hello' }],
      temperature: 0.3,
      top_p: 0.9,
    });
    expect(completion.choices[0]!.message.content).toBe('You said: Hello');
    const sent = context.harness.anthropic.lastRequest()!.body;
    expect(sent.temperature).toBe(0.3);
    expect(sent).not.toHaveProperty('top_p');
  });

  it('send the temperature alone from Responses, and top_p when it comes alone', async () => {
    const client = context.harness.openaiClient(context.key);
    const response = await client.responses.create({
      model: 'claude-opus-4-7',
      input: 'Hello',
      temperature: 0.3,
      top_p: 0.9,
    });
    expect(response.output_text).toBe('You said: Hello');
    expect(context.harness.anthropic.lastRequest()!.body).not.toHaveProperty('top_p');
    await client.responses.create({ model: 'claude-opus-4-7', input: 'Hello', top_p: 0.9 });
    expect(context.harness.anthropic.lastRequest()!.body.top_p).toBe(0.9);
  });
});
