import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A user's or team's budget counts every request of the user or team, through every key: also where
// only one key is checked against it (a key's cap), and across a budget removed and set again.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  // Every answer reports 500 tokens.
  h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 400, completion_tokens: 100 } } });
});

const ask = (key: string) =>
  h.openaiClient(key).chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'hi' }],
  });

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error as InstanceType<typeof OpenAI.APIError>).status,
  );

const remaining = (record: any, type: string): number =>
  record.limits.find((limit: any) => limit.limit_type === type).remaining;

describe('budgets shared by the keys of a user or team', () => {
  it("a key's cap on its team's daily budget counts the team's other keys", async () => {
    await h.admin('POST', '/internal/teams', { id: 'cap-team' });
    const capped = await h.issueKey({ scopes: ['chat'], team: 'cap-team', team_tpd_budget: 1000 });
    const other = await h.issueKey({ scopes: ['chat'], team: 'cap-team' });
    await ask(capped.key);
    // The team's other key, which has no limits, spends 2,000 tokens more.
    for (let i = 0; i < 4; i += 1) await ask(other.key);
    const team = await h.admin('GET', '/internal/teams/cap-team');
    expect(team.body.today.tokens).toBe(2500);
    const record = await h.admin('GET', `/internal/api-keys/${capped.id}`);
    expect(remaining(record.body, 'team_daily')).toBe(0);
    const refused = (await ask(capped.key).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect(refused.error).toMatchObject({ limit_type: 'team_daily' });
  });

  it("a key's cap on its user's daily budget counts the user's other keys", async () => {
    const capped = await h.issueKey({ scopes: ['chat'], user: 'cap-user', user_tpd_budget: 1000, rpm_limit: 100 });
    const other = await h.issueKey({ scopes: ['chat'], user: 'cap-user', rpm_limit: 100 });
    await ask(capped.key);
    await ask(other.key);
    await ask(other.key);
    expect(await status(ask(capped.key))).toBe(429);
  });

  it('a budget removed and set again counts what was used in between', async () => {
    await h.admin('POST', '/internal/users', { id: 'toggle-user', tpd_budget: 1200 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'toggle-user' });
    await ask(key.key);
    expect((await h.admin('PATCH', '/internal/users/toggle-user', { tpd_budget: null })).status).toBe(200);
    await ask(key.key);
    await ask(key.key);
    expect((await h.admin('PATCH', '/internal/users/toggle-user', { tpd_budget: 1200 })).status).toBe(200);
    const user = await h.admin('GET', '/internal/users/toggle-user');
    expect(user.body.today.tokens).toBe(1500);
    expect(remaining(user.body, 'user_daily')).toBe(0);
    expect(await status(ask(key.key))).toBe(429);
  });
});
