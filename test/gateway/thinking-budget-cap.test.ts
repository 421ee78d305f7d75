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

  it('a chat request for thinking cannot pass the cap: under 200 tokens the turn goes without thinking', async () => {
    const body = {
      model: 'claude-opus-4-7',
      thinking: { type: 'enabled', budget_tokens: 60_000 },
      messages: [{ role: 'user' as const, content: 'think' }],
    };
    await c.harness.openaiClient(c.key).chat.completions.create(body as never);
    const sent = c.harness.anthropic.lastRequest()!.body;
    expect(sent.max_tokens).toBe(200);
    expect(sent).not.toHaveProperty('thinking');
  });

  it('under a wider cap, thinking and the answer share it: the budget at most half, max_tokens at most the cap', async () => {
    const models = (await c.harness.admin('GET', '/internal/models')).body;
    const caps = models.per_model_max_tokens;
    await c.harness.admin('PUT', '/internal/models', { per_model_max_tokens: { ...caps, 'claude-opus-4-7': 6000 } });
    try {
      const client = c.harness.openaiClient(c.key);
      const ask = (extra: Record<string, unknown>) =>
        client.chat.completions.create({
          model: 'claude-opus-4-7',
          messages: [{ role: 'user', content: 'think' }],
          ...extra,
        } as never);
      await ask({ max_tokens: 5000, reasoning_effort: 'max' });
      expect(c.harness.anthropic.lastRequest()!.body).toMatchObject({
        max_tokens: 6000,
        thinking: { type: 'enabled', budget_tokens: 3000 },
      });
      // Room enough: the budget on top of the answer's limit, as without a cap.
      await ask({ max_tokens: 1000, reasoning_effort: 'low' });
      expect(c.harness.anthropic.lastRequest()!.body).toMatchObject({
        max_tokens: 2024,
        thinking: { type: 'enabled', budget_tokens: 1024 },
      });
    } finally {
      await c.harness.admin('PUT', '/internal/models', { per_model_max_tokens: caps });
    }
  });
});
