import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A key with a dollar budget (its own, its user's or its team's) reads its spend from every answer,
// as LiteLLM's `x-litellm-key-spend` tells it: the budget with the least left, what is spent, what is
// left and when it starts again. A key without one gets none of these headers.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h?.close());
beforeEach(() => {
  h.openai.reset();
  // 400 input and 100 output tokens at gpt-4o-mini's $0.15 / $0.60 per million: $0.00012 each.
  h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 400, completion_tokens: 100 } } });
});

const ask = (key: string) =>
  h
    .openaiClient(key)
    .chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    .withResponse();

const budget = (headers: Headers) => ({
  limit: headers.get('x-gatehouse-budget-limit-usd'),
  spent: Number(headers.get('x-gatehouse-budget-spent-usd')),
  remaining: Number(headers.get('x-gatehouse-budget-remaining-usd')),
  reset: headers.get('x-gatehouse-budget-reset'),
});

describe('spend headers', () => {
  it("a key's own daily dollar budget: limit, spent (this request's estimate included), left and reset", async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: 1 });
    const first = budget((await ask(key.key)).response.headers);
    expect(first.limit).toBe('1');
    expect(first.spent).toBeGreaterThan(0);
    expect(first.remaining).toBeCloseTo(1 - first.spent, 9);
    // The daily window ends at 00:00 UTC, written as the x-ratelimit resets are.
    expect(first.reset).toMatch(/^(\d+h)?(\d+m)?\d+(s|ms)$/);
    // The first request settled at $0.00012; the second holds the same estimate the first did.
    const second = budget((await ask(key.key)).response.headers);
    expect(second.spent).toBeCloseTo(0.00012 + first.spent, 9);
  });

  it("a team's budget shows through its keys, on a streamed answer's head too", async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'spenders', usd_monthly_budget: 0.5 })).status).toBe(201);
    const key = await h.issueKey({ scopes: ['chat'], team: 'spenders' });
    const { response, data } = await h
      .openaiClient(key.key)
      .chat.completions.create({
        model: 'gpt-4o-mini',
        stream: true,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .withResponse();
    for await (const chunk of data) void chunk;
    expect(response.headers.get('x-gatehouse-budget-limit-usd')).toBe('0.5');
    expect(Number(response.headers.get('x-gatehouse-budget-remaining-usd'))).toBeLessThan(0.5);
  });

  it('the dollar budget with the least left is the one shown', async () => {
    expect((await h.admin('POST', '/internal/users', { id: 'tight-user', usd_daily_budget: 0.001 })).status).toBe(201);
    const key = await h.issueKey({ scopes: ['chat'], user: 'tight-user', usd_monthly_budget: 10 });
    expect(budget((await ask(key.key)).response.headers).limit).toBe('0.001');
  });

  it('a key without a dollar budget gets none', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 10, tpm_limit: 10000 });
    const { response } = await ask(key.key);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('10');
    const names = [...response.headers.keys()].filter((name) => name.startsWith('x-gatehouse-budget'));
    expect(names).toEqual([]);
  });
});
