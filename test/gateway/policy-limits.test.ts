import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/server/gateway/limits/refusal.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A cost budget's 429 names the budget and what the request needed in dollars a person can read: a
 * budget below a hundredth of a cent used to read "allows $0.0000 per day", which names no limit at all.
 */
describe('cost budget refusals', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    // gpt-4o-mini is priced by the harness: $0.15 in and $0.60 out per million tokens.
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/users', { id: 'frugal', usd_daily_budget: 0.00001 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const chat = async (key: string, maxTokens: number): Promise<{ status: number; headers: Headers; body: any }> => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  it('names a small budget and the request cost with their significant digits', async () => {
    const key = await h.issueKey({ name: 'frugal', user: 'frugal' });
    // 100 output tokens at $0.60 per million, more than the whole budget: it can never pass.
    const refused = await chat(key.key, 100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(refused.body.error.limit_type).toBe('user_cost_daily');
    expect(refused.body.error.message).toMatch(
      /^rate limit 'user_cost_daily' exceeded: this request needs \$0\.0000\d+ and user:frugal allows \$0\.00001 per day \(budget, UTC\), so it can never pass/,
    );
    expect(refused.body.error.message).not.toContain('$0.0000 ');
  });

  it('tells an embeddings request that can never pass to send less input (it has no max_tokens)', async () => {
    await h.admin('POST', '/internal/users', { id: 'indexer', tpm_budget: 50 });
    const key = await h.issueKey({ name: 'indexer', user: 'indexer', scopes: ['embeddings'] });
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'word '.repeat(200) }),
    });
    expect(response.status).toBe(429);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toMatch(/allows 50 tokens per minute \(budget\), so it can never pass; send less input$/);
  });

  it('writes dollars with cents from a dollar up, and three significant digits below', () => {
    expect([0, 0.00001, 0.0000042, 0.06, 0.999, 1, 20, 12345.678].map(formatUsd)).toEqual([
      '$0',
      '$0.00001',
      '$0.0000042',
      '$0.06',
      '$0.999',
      '$1.00',
      '$20.00',
      '$12345.68',
    ]);
  });
});
