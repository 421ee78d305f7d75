import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';
import { keyLimit, refused } from '../support/limit-views.js';

// A refusal names the setting that refused: a key's cap on its user's or team's budget where that cap
// is the tighter one, not the user or team, whose own budget says something else. And every 429 that
// says how long to wait says it in milliseconds too.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h?.close());
beforeEach(() => {
  h.openai.reset();
  // Every answer reports 500 tokens.
  h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 400, completion_tokens: 100 } } });
});

const ask = (key: string, maxTokens = 10) =>
  h.openaiClient(key).chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: maxTokens,
    messages: [{ role: 'user', content: 'hi' }],
  });

describe("a key's cap on its user's or team's budget", () => {
  it("the 429 names the key's cap and the user's own budget; the view says which one set the limit", async () => {
    expect((await h.admin('POST', '/internal/users', { id: 'x1', tpd_budget: 10000 })).status).toBe(201);
    const capped = await h.issueKey({ scopes: ['chat'], user: 'x1', user_tpd_budget: 300 });
    const loose = await h.issueKey({ scopes: ['chat'], user: 'x1', user_tpd_budget: 20000 });
    const plain = await h.issueKey({ scopes: ['chat'], user: 'x1' });
    await ask(plain.key);

    const error = await refused(ask(capped.key));
    expect(error.error).toMatchObject({ limit_type: 'user_daily' });
    expect(error.message).toMatch(
      new RegExp(
        `^429 rate limit 'user_daily' exceeded: key:${capped.id} caps user:x1's daily budget at 300 tokens \\(the user allows 10000 tokens\\): 500 used, 0 left; retry after \\d+ s$`,
      ),
    );
    expect(error.headers.get('x-ratelimit-limit-tokens')).toBe('300');

    expect(await keyLimit(h, capped.id, 'user_daily')).toMatchObject({ subject: 'user:x1', limit: 300, set_by: 'key' });
    expect(await keyLimit(h, loose.id, 'user_daily')).toMatchObject({
      subject: 'user:x1',
      limit: 10000,
      set_by: 'user',
    });
    // A key without a cap has nothing to tell apart.
    const own = await keyLimit(h, plain.id, 'user_daily');
    expect(own).toMatchObject({ subject: 'user:x1', limit: 10000 });
    expect(own.set_by).toBeUndefined();
    // The user's own view is the user's budget.
    const user = await h.admin('GET', '/internal/users/x1');
    expect(user.body.limits.find((limit: any) => limit.limit_type === 'user_daily').set_by).toBeUndefined();
  });

  it('a cap on a team without a budget of its own says the team has none, also when a request can never pass', async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'capless' })).status).toBe(201);
    const key = await h.issueKey({ scopes: ['chat'], team: 'capless', team_tpd_budget: 50 });
    const error = await refused(ask(key.key, 100));
    expect(error.message).toMatch(
      new RegExp(
        `^429 rate limit 'team_daily' exceeded: this request needs \\d+ tokens and key:${key.id} caps team:capless's daily budget at 50 tokens \\(the team has no such budget\\), so it can never pass; `,
      ),
    );
    expect(await keyLimit(h, key.id, 'team_daily')).toMatchObject({
      subject: 'team:capless',
      limit: 50,
      set_by: 'key',
    });
  });
});

describe('retry-after-ms on every 429 that says when to retry', () => {
  it('a request that can never pass carries it, as the whole window in milliseconds', async () => {
    // gpt-4o-mini at $0.15 / $0.60 per million: 100 output tokens alone cost $0.00006.
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: 0.00001 });
    const error = await refused(ask(key.key, 100));
    expect(error.message).toContain('so it can never pass');
    expect(error.headers.get('x-should-retry')).toBe('false');
    const seconds = Number(error.headers.get('retry-after'));
    expect(seconds).toBe(86400);
    expect(error.headers.get('retry-after-ms')).toBe(String(seconds * 1000));
  });

  it('a frozen budget (0) says no wait at all: only raising it helps', async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_monthly_budget: 0 });
    const error = await refused(ask(key.key));
    expect(error.message).toContain('frozen');
    expect(error.headers.get('x-should-retry')).toBe('false');
    expect(error.headers.get('retry-after')).toBeNull();
    expect(error.headers.get('retry-after-ms')).toBeNull();
  });
});
