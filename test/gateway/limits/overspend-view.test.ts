import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A budget is checked against estimates, so an answer longer than its reservation can take it past its
// limit. The admin views show how far (used above the limit), and a budget no number can overflow.

describe('where a budget stands once it is overspent', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h.close());

  it('shows the spend past the limit, with nothing remaining', async () => {
    await h.admin('POST', '/internal/users', { id: 'overspent', tpd_budget: 1000 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'overspent' });
    h.openai.setNext({ reply: { text: 'long answer', usage: { prompt_tokens: 10, completion_tokens: 4990 } } });
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go on' }] }),
    });
    expect(answer.status).toBe(200);
    const user = (await h.admin('GET', '/internal/users/overspent')).body;
    expect(user.limits.find((limit: { limit_type: string }) => limit.limit_type === 'user_daily')).toMatchObject({
      limit: 1000,
      used: 5000,
      remaining: 0,
    });
    expect(user.today.tokens).toBe(5000);
  });

  it('refuses a dollar budget too large to count, naming the field, and keeps the lists answering', async () => {
    for (const [path, body] of [
      ['/internal/teams', { id: 'rich', usd_daily_budget: 1e308 }],
      ['/internal/users', { id: 'rich', usd_daily_budget: 1e12 }],
    ] as const) {
      const refused = await h.admin('POST', path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('usd_daily_budget must be at most 1000000000');
    }
    expect((await h.admin('POST', '/internal/teams', { id: 'rich', usd_daily_budget: 1e9 })).status).toBe(201);
    expect((await h.admin('GET', '/internal/teams')).status).toBe(200);
  });
});
