import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI takes a stop sequence of whitespace alone (`"\n\n"`, a paragraph's end); Anthropic refuses the
 * whole request for one. A chat request for a Claude model leaves such stops out and keeps the others,
 * as LiteLLM does: the model may run past a blank line, but the request is answered.
 */
describe('chat stop sequences for a Claude model', () => {
  const c = harnessWithKey();
  beforeEach(() => c.harness.anthropic.reset());

  it('leaves out the ones that are only whitespace and keeps the rest', async () => {
    const completion = await c.harness.openaiClient(c.key).chat.completions.create({
      model: 'claude-opus-4-7',
      stop: ['\n\n', 'END', ' \t'],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBeTruthy();
    expect(c.harness.anthropic.lastRequest()!.body.stop_sequences).toEqual(['END']);
  });

  it('sends no stop_sequences when every stop is whitespace', async () => {
    await c.harness.openaiClient(c.key).chat.completions.create({
      model: 'claude-opus-4-7',
      stop: '\n',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(c.harness.anthropic.lastRequest()!.body).not.toHaveProperty('stop_sequences');
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
