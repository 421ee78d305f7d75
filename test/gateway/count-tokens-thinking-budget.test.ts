import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A count carries no `max_tokens` and generates nothing: a thinking budget above the model's
 * `per_model_max_tokens` (the harness caps claude-opus-4-7 at 200) is counted, as Anthropic counts it,
 * while Messages with the same budget still refuses it (thinking-budget-cap.test.ts).
 */
describe('count_tokens with a thinking budget on a capped model', () => {
  let c: HarnessClients;
  withSdkClients({}, ['chat'], (clients) => (c = clients));

  it('counts a budget above the cap, sending the thinking as the client wrote it and no max_tokens', async () => {
    c.h.anthropic.setNext({ reply: { usage: { input_tokens: 321, output_tokens: 0 } } });
    const counted = await c.anthropic.messages.countTokens({
      model: 'claude-opus-4-7',
      thinking: { type: 'enabled', budget_tokens: 4000 },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(counted).toEqual({ input_tokens: 321 });
    const sent = c.h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(sent.body).not.toHaveProperty('max_tokens');
  });

  it('counts a budget equal to the cap through an alias', async () => {
    const counted = await c.anthropic.messages.countTokens({
      model: 'smart',
      thinking: { type: 'enabled', budget_tokens: 200 },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(c.h.anthropic.lastRequest()!.body).toMatchObject({ model: 'claude-opus-4-7' });
  });
});
