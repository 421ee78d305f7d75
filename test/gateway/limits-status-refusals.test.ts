import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_LLM, startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { keyLimit, refused } from './support/limit-views.js';

/**
 * A budget that still has room refuses a request larger than that room: its 429 says what was used,
 * what is left and what the request needed, so a caller sends a smaller max_tokens rather than
 * waiting hours for a budget that is not spent. The keys' limits view says which budgets refuse
 * requests now, beside a meter that would otherwise look healthy.
 */
let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({
    // Without a model cap a request without max_tokens reserves the configured 256 output tokens;
    // gpt-4o-mini priced high so that a few hundred tokens reach a dollar budget.
    llm: { ...HARNESS_LLM, per_model_max_tokens: {} },
    pricing: { 'gpt-4o-mini': { input_per_mtok: 1500, output_per_mtok: 6000 } },
    limits: { output_reservation_tokens: 256 },
  });
});
afterAll(() => h?.close());
beforeEach(() => h.openai.reset());

const chat = (client: OpenAI, maxTokens?: number) =>
  client.chat.completions.create({
    model: 'gpt-4o-mini',
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
    messages: [{ role: 'user', content: 'hello there' }],
  });

describe('a token budget with room left below the request', () => {
  it('says used, left and needed, and that a smaller max_tokens passes', async () => {
    await h.admin('POST', '/internal/teams', { id: 'data', tpd_budget: 3000 });
    const key = await h.issueKey({ name: 'carol-nb', user: 'carol', team: 'data', scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    h.openai.setNext({ reply: { text: 'ok', usage: { prompt_tokens: 2700, completion_tokens: 94 } } });
    await chat(client, 10);
    // 206 left, less than the least request without max_tokens reserves: the view says so before any refusal.
    expect((await keyLimit(h, key.id, 'team_daily')).refusing).toEqual({ needed: 260, basis: 'smallest_request' });

    const error = await refused(chat(client));
    expect(error.headers?.get('x-should-retry')).toBe('false');
    const match = error.message.match(
      /^429 rate limit 'team_daily' exceeded: team:data allows 3000 tokens per day \(budget, UTC\): 2794 used, 206 left; this request needs (\d+) tokens \((\d+) input \+ 256 reserved for output\): send a smaller max_tokens, or retry after \d+ s$/,
    );
    expect(match).not.toBeNull();
    const [needed, input] = [Number(match![1]), Number(match![2])];
    expect(needed).toBe(input + 256);

    // The view now names what the refused request needed.
    const status = await keyLimit(h, key.id, 'team_daily');
    expect(status).toMatchObject({ used: 2794, remaining: 206, refusing: { needed, basis: 'last_refusal' } });
    // As the message says, a smaller max_tokens passes.
    h.openai.setNext({ reply: { text: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } } });
    await expect(chat(client, 10)).resolves.toBeDefined();
  });
});

describe('a dollar budget', () => {
  it('with room left says used, left and needed in dollars', async () => {
    const key = await h.issueKey({ name: 'spender', usd_daily_budget: 2, scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    // 100 + 100 tokens at $1,500 / $6,000 per million: $0.75 used.
    h.openai.setNext({ reply: { text: 'ok', usage: { prompt_tokens: 100, completion_tokens: 100 } } });
    await chat(client, 10);
    const error = await refused(chat(client));
    expect(error.message).toMatch(
      /^429 rate limit 'key_cost_daily' exceeded: key:\S+ allows \$2\.00 per day \(budget, UTC\): \$0\.75 used, \$1\.25 left; this request needs \$1\.5\d+ \(\d+ input \+ 256 reserved for output tokens\): send a smaller max_tokens, or retry after \d+ s$/,
    );
    expect((await keyLimit(h, key.id, 'key_cost_daily')).refusing).toMatchObject({ basis: 'last_refusal' });
  });

  it('below one request of its only model says so in the view, and the refusal names input and reservation', async () => {
    const key = await h.issueKey({ name: 'bob-ci', usd_daily_budget: 0.05, models: ['gpt-4o-mini'], scopes: ['chat'] });
    // 4 prompt tokens and 256 output tokens at gpt-4o-mini's price: $1.542, before any request.
    expect((await keyLimit(h, key.id, 'key_cost_daily')).refusing).toEqual({
      needed: 1.542,
      basis: 'smallest_request',
    });
    const error = await refused(chat(h.openaiClient(key.key)));
    expect(error.message).toMatch(
      /so it can never pass; lower max_tokens \(256 reserved for output\) or the input \(\d+ tokens\)$/,
    );
  });

  it('with room for a request says nothing of refusing', async () => {
    const key = await h.issueKey({ name: 'roomy', usd_daily_budget: 5, models: ['gpt-4o-mini'], scopes: ['chat'] });
    expect((await keyLimit(h, key.id, 'key_cost_daily')).refusing).toBeUndefined();
  });
});
