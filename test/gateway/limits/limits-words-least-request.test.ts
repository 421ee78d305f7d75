import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';
import { keyLimit } from '../support/limit-views.js';

// The keys' limits view says a budget refuses requests once what is left is below the least request
// without max_tokens: that request reserves a model's per_model_max_tokens where it is below the
// configured output reservation, and costs what the cheapest model costs when every model has a price.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({
    llm: { allowed_models: ['gpt-4o-mini', 'claude-opus-4-7'], per_model_max_tokens: { 'gpt-4o-mini': 100 } },
    deployments: [],
    pricing: {
      'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 },
      'claude-opus-4-7': { input_per_mtok: 15, output_per_mtok: 75 },
    },
    limits: { output_reservation_tokens: 256 },
  });
});
afterAll(() => h?.close());

describe('the least request a budget must still have room for', () => {
  it("reserves a model's per_model_max_tokens where it is below the output reservation", async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'least', tpd_budget: 3000 })).status).toBe(201);
    const key = await h.issueKey({ scopes: ['chat'], team: 'least' });
    h.openai.setNext({ reply: { text: 'ok', usage: { prompt_tokens: 2850, completion_tokens: 50 } } });
    await h
      .openaiClient(key.key)
      .chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    // 100 left: gpt-4o-mini's request without max_tokens reserves 4 + 100 tokens, not 4 + 256.
    expect((await keyLimit(h, key.id, 'team_daily')).refusing).toEqual({ needed: 104, basis: 'smallest_request' });
  });

  it('a key without a model list: dollars at the cheapest model when every allowed model has a price', async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: 0.00005 });
    // gpt-4o-mini: 4 input tokens at $0.15 and 100 output tokens at $0.60 per million.
    expect((await keyLimit(h, key.id, 'key_cost_daily')).refusing).toEqual({
      needed: 0.0000606,
      basis: 'smallest_request',
    });
  });
});
