import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Token counts come from the provider's answer. A count that cannot be one (negative, fractional, past
// any context window) is not booked: the gateway estimates instead, as for an upstream that reports
// none, so a broken or hostile upstream cannot put negative or billion-dollar rows into usage and budgets.

describe('token counts a provider reports', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/users', { id: 'counted', tpd_budget: 1_000_000 });
  });
  afterAll(async () => h.close());

  const dailyUsed = async (): Promise<number> =>
    (await h.admin('GET', '/internal/users/counted')).body.limits.find(
      (limit: { limit_type: string }) => limit.limit_type === 'user_daily',
    ).used;

  const post = (key: string, path: string, body: object) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('are estimated when negative or absurd, in the answer, the usage row, the cost and the budget', async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'counted' });
    h.openai.setNext({
      reply: { text: 'four words of answer', usage: { prompt_tokens: -100000, completion_tokens: 1e15 } },
    });
    const response = await post(key.key, '/v1/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'a short question' }],
    });
    expect(response.status).toBe(200);
    const { usage } = (await response.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.prompt_tokens).toBeLessThan(50);
    expect(usage.completion_tokens).toBe(Math.ceil('four words of answer'.length / 4));

    const [row] = await h.usageRows(`key_id=${key.id}`);
    expect(row).toMatchObject({
      status: 200,
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
    });
    expect(row.cost_usd).toBeGreaterThan(0);
    expect(row.cost_usd).toBeLessThan(0.001);
    expect(await dailyUsed()).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it('keep a valid count beside an invalid one (Anthropic Messages)', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    h.anthropic.setNext({ reply: { text: 'fine', usage: { input_tokens: 12, output_tokens: -3 } } });
    const response = await post(key.key, '/v1/messages', {
      model: 'claude-opus-4-7',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(response.status).toBe(200);
    const [row] = await h.usageRows(`key_id=${key.id}`);
    expect(row.prompt_tokens).toBe(12);
    expect(row.completion_tokens).toBeGreaterThan(0);
  });
});
