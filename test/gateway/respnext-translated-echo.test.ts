import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A Response echoes the request's settings, as OpenAI's does, also where a translated deployment
 * (chat completions, Messages) does not apply them: `truncation` and `reasoning` as sent.
 */
describe('Responses on translated deployments echo truncation and reasoning', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  it('as sent, in the whole answer and in the streamed Response objects, on chat completions and Messages', async () => {
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const settings = {
        model,
        input: 'hello',
        truncation: 'auto' as const,
        reasoning: { effort: 'high' as const, summary: 'auto' as const },
        text: { verbosity: 'low' as const },
      };
      const whole = await c.openai.responses.create(settings);
      expect(whole.truncation).toBe('auto');
      expect(whole.reasoning).toEqual({ effort: 'high', summary: 'auto' });
      expect(whole.text).toMatchObject({ verbosity: 'low', format: { type: 'text' } });

      const streamed = await c.openai.responses.stream(settings).finalResponse();
      expect(streamed.truncation).toBe('auto');
      expect(streamed.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    }
  });

  it('with their defaults when not sent', async () => {
    const plain = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'hello' });
    expect(plain.truncation).toBe('disabled');
    expect(plain.reasoning).toEqual({ effort: null, summary: null });
  });
});
