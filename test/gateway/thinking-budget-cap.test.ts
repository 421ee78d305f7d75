import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Anthropic refuses a thinking budget that is not below max_tokens. The harness caps claude-opus-4-7 at
 * 200 tokens: a request valid as sent (max_tokens 4000, budget 1024) would be made invalid by the cap.
 */
describe('a thinking budget and the per-model cap', () => {
  const c = harnessWithKey();
  beforeEach(() => c.harness.anthropic.reset());

  it('is refused with a 400 naming the cap when the cap brings max_tokens down to the budget', async () => {
    const error = await c.harness
      .anthropicClient(c.key)
      .messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'think' }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain(
      "thinking.budget_tokens (1024) must be below max_tokens, which per_model_max_tokens caps at 200 for model 'claude-opus-4-7'",
    );
    expect(c.harness.anthropic.requests).toHaveLength(0);
  });

  it('passes a budget below the capped max_tokens', async () => {
    await c.harness.anthropicClient(c.key).messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 150 },
      messages: [{ role: 'user', content: 'think' }],
    });
    expect(c.harness.anthropic.lastRequest()!.body).toMatchObject({
      max_tokens: 200,
      thinking: { type: 'enabled', budget_tokens: 150 },
    });
  });

  it('a chat request to the capped model keeps its thinking: the translation adds the budget on top of the cap', async () => {
    const body = {
      model: 'claude-opus-4-7',
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user' as const, content: 'think' }],
    };
    await c.harness.openaiClient(c.key).chat.completions.create(body as never);
    expect(c.harness.anthropic.lastRequest()!.body).toMatchObject({
      max_tokens: 200 + 1024,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });
});
