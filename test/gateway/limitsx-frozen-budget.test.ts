import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// A dollar budget of 0 freezes a key's, user's or team's spending: every request is refused, priced or not.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h.close());
beforeEach(() => h.openai.reset());

const refusalOf = async (client: OpenAI, model: string) =>
  (await client.chat.completions
    .create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] })
    .catch((error: unknown) => error)) as InstanceType<typeof OpenAI.RateLimitError>;

describe('a dollar budget of 0', () => {
  it("on a key refuses every request, a priced model's and an unpriced one's, saying it is frozen", async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: 0 });
    expect(key.usd_daily_budget).toBe(0);
    const client = h.openaiClient(key.key);
    // gpt-4o-mini is priced; claude-opus-4-7 has no price, so its estimate costs nothing.
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const error = await refusalOf(client, model);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.error).toMatchObject({ type: 'rate_limit_exceeded', limit_type: 'key_cost_daily' });
      expect(error.message).toContain(`the budget of key:${key.id} is $0 per day (budget, UTC), frozen`);
      // No wait helps, only raising the budget: the SDKs are told not to retry, and no Retry-After promises one.
      expect(error.headers.get('x-should-retry')).toBe('false');
      expect(error.headers.get('retry-after')).toBeNull();
      expect(error.headers.get('retry-after-ms')).toBeNull();
    }
    expect(h.openai.requests).toHaveLength(0);
    expect(h.anthropic.requests).toHaveLength(0);
  });

  it('answers a plain HTTP client 429 with x-should-retry: false and no Retry-After', async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: 0 });
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(response.headers.get('retry-after-ms')).toBeNull();
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('no request can pass until it is raised');
  });

  it("on a user's monthly budget and a team's daily budget, through the admin API", async () => {
    const team = await h.admin('POST', '/internal/teams', { id: 'frozen-team', usd_daily_budget: 0 });
    expect(team.status).toBe(201);
    const user = await h.admin('POST', '/internal/users', { id: 'frozen-user', usd_monthly_budget: 0 });
    expect(user.status).toBe(201);
    const ofUser = h.openaiClient((await h.issueKey({ scopes: ['chat'], user: 'frozen-user' })).key);
    const userRefusal = await refusalOf(ofUser, 'gpt-4o-mini');
    expect(userRefusal.error).toMatchObject({ limit_type: 'user_cost_monthly' });
    expect(userRefusal.message).toContain('the budget of user:frozen-user is $0 per month');
    const ofTeam = h.openaiClient((await h.issueKey({ scopes: ['chat'], team: 'frozen-team' })).key);
    const teamRefusal = await refusalOf(ofTeam, 'claude-opus-4-7');
    expect(teamRefusal.error).toMatchObject({ limit_type: 'team_cost_daily' });
    expect(teamRefusal.headers.get('retry-after')).toBeNull();
    expect(teamRefusal.headers.get('x-should-retry')).toBe('false');
    // Raised again, the team's keys spend again.
    expect((await h.admin('PATCH', '/internal/teams/frozen-team', { usd_daily_budget: 1 })).status).toBe(200);
    await expect(
      ofTeam.chat.completions.create({
        model: 'gpt-4o-mini',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).resolves.toBeDefined();
  });

  it('is the only budget below a billionth of a dollar; a negative one is refused too', async () => {
    for (const usd_daily_budget of [0.0000000001, -1]) {
      const refused = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], usd_daily_budget });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('usd_daily_budget');
      expect(JSON.stringify(refused.body)).toContain('must be 0 (nothing may be spent)');
    }
  });
});
