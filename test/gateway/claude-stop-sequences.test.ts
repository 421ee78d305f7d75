import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI takes a stop sequence of whitespace alone (`"\n"`, a line's end); Anthropic refuses the
 * whole request for one. A chat request for a Claude model with such a stop is the client's 400,
 * naming it, and never reaches Anthropic.
 */
describe('chat stop sequences for a Claude model', () => {
  const c = harnessWithKey();
  beforeEach(() => c.harness.anthropic.reset());

  it('refuses one that is only whitespace with a 400 naming it, before any upstream call', async () => {
    const client = c.harness.openaiClient(c.key);
    const error = await client.chat.completions
      .create({ model: 'claude-opus-4-7', stop: ['END', '\n'], messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      'stop: "\\n" is only whitespace, which Anthropic models do not take as a stop sequence',
    );
    expect(c.harness.anthropic.requests).toHaveLength(0);
  });

  it('forwards stops with text in them as stop_sequences', async () => {
    await c.harness.openaiClient(c.key).chat.completions.create({
      model: 'claude-opus-4-7',
      stop: ['\nEND'],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(c.harness.anthropic.lastRequest()!.body.stop_sequences).toEqual(['\nEND']);
  });
});
