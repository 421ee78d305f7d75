import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Dollar budgets per key (its own spend) and per UTC calendar month, as the official OpenAI SDK sees
// them: gpt-4o-mini is priced at $0.15 in and $0.60 out per million tokens, and the mock upstream
// answers 1000 + 1000 tokens, so each request costs $0.00075 and a budget of $0.0015 admits two.

const BUDGET = 0.0015;
const DAY_MS = 86_400_000;

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ limits: { keys: { usd_monthly_budget: 1000 } } });
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } } });
});

const ask = (client: OpenAI) =>
  client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });

type RateLimited = InstanceType<typeof OpenAI.RateLimitError>;

/** Spends the budget with two requests, and answers the third one's refusal. */
async function refusedAfterBudget(client: OpenAI): Promise<RateLimited> {
  await ask(client);
  await ask(client);
  const error = (await ask(client).catch((e: unknown) => e)) as RateLimited;
  expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  return error;
}

/** Seconds from now until `end`, as Retry-After rounds them (up). */
const secondsUntil = (end: number): number => Math.ceil((end - Date.now()) / 1000);

function expectRetryAfterUntil(error: RateLimited, end: number): void {
  const retryAfter = Number(error.headers.get('retry-after'));
  expect(Math.abs(retryAfter - secondsUntil(end))).toBeLessThanOrEqual(3);
  // Hours or days: the SDKs are told not to sleep through it.
  expect(error.headers.get('x-should-retry')).toBe('false');
}

const nextMidnight = (): number => Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
const nextFirstOfMonth = (): number => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
};

describe('a key’s own dollar budgets', () => {
  it('a daily budget refuses the key’s next request once spent, until midnight UTC; another key of the user still works', async () => {
    const spent = await h.issueKey({ scopes: ['chat'], user: 'budget-ada', usd_daily_budget: BUDGET });
    expect(spent.usd_daily_budget).toBe(BUDGET);
    const other = await h.issueKey({ scopes: ['chat'], user: 'budget-ada' });
    const error = await refusedAfterBudget(h.openaiClient(spent.key));
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ limit_type: 'key_cost_daily' });
    expect(error.message).toContain(`key:${spent.id} allows $0.0015 per day`);
    expectRetryAfterUntil(error, nextMidnight());
    await expect(ask(h.openaiClient(other.key))).resolves.toMatchObject({ object: 'chat.completion' });
    // The status view shows the day's spend against the budget.
    const record = (await h.admin('GET', `/internal/api-keys/${spent.id}`)).body;
    expect(record.usd_daily_budget).toBe(BUDGET);
    const status = record.limits.find((limit: { limit_type: string }) => limit.limit_type === 'key_cost_daily');
    expect(status).toMatchObject({ subject: `key:${spent.id}`, limit: BUDGET, used: BUDGET, remaining: 0 });
  });

  it('a monthly budget refuses until 00:00 UTC on the 1st of next month', async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_monthly_budget: BUDGET });
    const error = await refusedAfterBudget(h.openaiClient(key.key));
    expect(error.error).toMatchObject({ limit_type: 'key_cost_monthly' });
    expect(error.message).toContain('per month');
    expectRetryAfterUntil(error, nextFirstOfMonth());
  });

  it('set through PATCH applies to the next request, and null returns to the configured default', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    await ask(client);
    await ask(client);
    const patched = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { usd_monthly_budget: BUDGET });
    expect(patched.status).toBe(200);
    expect(patched.body.usd_monthly_budget).toBe(BUDGET);
    expect(((await ask(client).catch((e: unknown) => e)) as RateLimited).error).toMatchObject({
      limit_type: 'key_cost_monthly',
    });
    const cleared = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { usd_monthly_budget: null });
    expect(cleared.body.usd_monthly_budget).toBeNull();
    const shown = (await h.admin('GET', `/internal/api-keys/${key.id}`)).body.limits;
    expect(shown).toContainEqual(expect.objectContaining({ limit_type: 'key_cost_monthly', limit: 1000 }));
    await expect(ask(client)).resolves.toMatchObject({ object: 'chat.completion' });
  });
});

describe('monthly budgets of users and teams', () => {
  it('a user’s monthly budget counts all their keys, and refuses until the 1st of next month', async () => {
    const created = await h.admin('POST', '/internal/users', { id: 'monthly-user', usd_monthly_budget: BUDGET });
    expect(created.status).toBe(201);
    expect(created.body.usd_monthly_budget).toBe(BUDGET);
    const first = await h.issueKey({ scopes: ['chat'], user: 'monthly-user' });
    const second = await h.issueKey({ scopes: ['chat'], user: 'monthly-user' });
    await ask(h.openaiClient(first.key));
    await ask(h.openaiClient(second.key));
    const error = (await ask(h.openaiClient(first.key)).catch((e: unknown) => e)) as RateLimited;
    expect(error.error).toMatchObject({ limit_type: 'user_cost_monthly' });
    expectRetryAfterUntil(error, nextFirstOfMonth());
    const user = (await h.admin('GET', '/internal/users/monthly-user')).body;
    expect(user.limits).toContainEqual(
      expect.objectContaining({ limit_type: 'user_cost_monthly', limit: BUDGET, used: BUDGET }),
    );
  });

  it('a team’s monthly budget refuses with team_cost_monthly', async () => {
    await h.admin('POST', '/internal/teams', { id: 'monthly-team', usd_monthly_budget: BUDGET });
    const key = await h.issueKey({ scopes: ['chat'], team: 'monthly-team' });
    const error = await refusedAfterBudget(h.openaiClient(key.key));
    expect(error.error).toMatchObject({ limit_type: 'team_cost_monthly' });
    expectRetryAfterUntil(error, nextFirstOfMonth());
    const patched = await h.admin('PATCH', '/internal/teams/monthly-team', { usd_monthly_budget: null });
    expect(patched.body.usd_monthly_budget).toBeNull();
    await expect(ask(h.openaiClient(key.key))).resolves.toMatchObject({ object: 'chat.completion' });
  });
});

describe('validation of the new budgets', () => {
  const cases = [
    { path: '/internal/api-keys', body: { scopes: ['chat'], usd_daily_budget: 1e-12 }, says: 'at least 0.000000001' },
    { path: '/internal/api-keys', body: { scopes: ['chat'], usd_monthly_budget: 2e9 }, says: 'at most 1000000000' },
    { path: '/internal/users', body: { id: 'v-user', usd_monthly_budget: -1 }, says: 'at least 0.000000001' },
    { path: '/internal/teams', body: { id: 'v-team', usd_monthly_budget: 'ten' }, says: 'must be a number' },
  ];

  it.each(cases)('POST $path refuses a bad dollar budget: $says', async ({ path, body, says }) => {
    const answer = await h.admin('POST', path, body);
    expect(answer.status).toBe(400);
    const field = Object.keys(body).find((name) => name.startsWith('usd_'))!;
    expect(answer.body.error.message).toContain(field);
    expect(answer.body.error.message).toContain(says);
  });

  it('names the field on a key update too, and the bound', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const answer = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { usd_daily_budget: 1e12 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('usd_daily_budget');
    expect(answer.body.error.message).toContain('at most 1000000000');
  });
});
