import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  haDeployments,
  HARNESS_LLM,
  putIfMatch,
  OPENAI_UPSTREAM_KEY,
  startGatewayHarness,
  type GatewayHarness,
} from './support/harness.js';

// Prices are model settings: a model allowed through the admin API can be priced there too, and dollar
// budgets count it from the next request. The harness's file prices gpt-4o-mini only (which also prices
// ha-model, served by upstream gpt-4o-mini); team-llama, added here, has no price until one is saved.
// The mock upstream answers 1000 + 1000 tokens: at $1 per million each way a request costs $0.002, so a
// budget of $0.003 admits two.

const BUDGET = 0.003;
const FILE_PRICING = { 'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 } };
const LLAMA_PRICE = { input_per_mtok: 1, output_per_mtok: 1 };

let h: GatewayHarness;

beforeAll(async () => {
  // The harness's llm section, with team-llama allowed: a reset keeps it allowed, and drops its price.
  h = await startGatewayHarness({
    llm: { ...HARNESS_LLM, allowed_models: [...HARNESS_LLM.allowed_models, 'team-llama'] },
  });
  const deployments = await h.admin('PUT', '/internal/deployments', {
    deployments: [
      ...haDeployments(h.openai.url, h.openaiSecondary.url),
      {
        id: 'llama',
        model: 'team-llama',
        provider: 'openai',
        upstream_model: 'llama-3',
        base_url: h.openai.url,
        api_key: OPENAI_UPSTREAM_KEY,
      },
    ],
  });
  expect(deployments.status).toBe(200);
});
afterAll(() => h?.close());
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } } });
});

const ask = (client: OpenAI) =>
  client.chat.completions.create({ model: 'team-llama', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });

/** Asks up to `times` times; the first refusal, or undefined when every request was answered. */
async function firstRefusal(client: OpenAI, times: number): Promise<unknown> {
  for (let i = 0; i < times; i += 1) {
    const outcome = await ask(client).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

const put = (body: unknown, ifMatch?: string) => putIfMatch(h, '/internal/models', body, ifMatch);

describe('model prices through PUT /internal/models', () => {
  it("shows the file's prices, and the allowed models without one as unpriced", async () => {
    // Another model setting saved (prices sent back as they came): the file's prices stay the default.
    const read = await h.admin('GET', '/internal/models');
    const saved = await put({
      pricing: read.body.pricing,
      model_aliases: { ...read.body.model_aliases, quick: 'ha-model' },
    });
    expect(saved.status).toBe(200);
    const { body } = await h.admin('GET', '/internal/models');
    expect(body.source).toBe('database');
    expect(body.pricing).toEqual(FILE_PRICING);
    expect(body.unpriced_models).toContain('team-llama');
    expect(body.unpriced_models).toContain('claude-opus-4-7');
    // Priced by name, by the upstream model of its deployments, or free (the demo models).
    expect(body.unpriced_models).not.toContain('gpt-4o-mini');
    expect(body.unpriced_models).not.toContain('ha-model');
    expect(body.unpriced_models).not.toContain('demo/echo');
  });

  it('refuses a price for a model not allowed, for an alias, or out of bounds, naming it', async () => {
    const unknown = await put({ pricing: { ...FILE_PRICING, 'team-lama': LLAMA_PRICE } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: 'invalid_request_error', code: 400 });
    expect(unknown.body.error.message).toContain('pricing.team-lama');
    expect(unknown.body.error.message).toContain('neither in allowed_models');
    const alias = await put({ pricing: { ...FILE_PRICING, fast: LLAMA_PRICE } });
    expect(alias.status).toBe(400);
    expect(alias.body.error.message).toContain("pricing.fast: 'fast' is an alias");
    expect(alias.body.error.message).toContain("'gpt-4o-mini'");
    const negative = await put({ pricing: { 'team-llama': { input_per_mtok: -1, output_per_mtok: 1 } } });
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toContain('pricing.team-llama.input_per_mtok');
    const oneSided = await put({ pricing: { 'team-llama': { input_per_mtok: 1 } } });
    expect(oneSided.status).toBe(400);
    expect(oneSided.body.error.message).toContain('pricing.team-llama.output_per_mtok');
    // Nothing was saved.
    expect((await h.admin('GET', '/internal/models')).body.pricing).toEqual(FILE_PRICING);
  });

  it('a dollar budget refuses once a price is set through the API, and stops counting after a reset', async () => {
    const key = await h.issueKey({ scopes: ['chat'], usd_daily_budget: BUDGET });
    const client = h.openaiClient(key.key);
    // Unpriced: every request costs $0 and the budget never fills.
    expect(await firstRefusal(client, 3)).toBeUndefined();
    expect((await h.usageRows(`key_id=${key.id}`)).every((row) => row.cost_usd === 0)).toBe(true);

    const read = await h.admin('GET', '/internal/models');
    const priced = await put(
      { pricing: { ...read.body.pricing, 'team-llama': LLAMA_PRICE } },
      read.headers.get('etag')!,
    );
    expect(priced.status).toBe(200);
    expect(priced.body).toMatchObject({ source: 'database', pricing: { 'team-llama': LLAMA_PRICE } });
    expect(priced.body.unpriced_models).not.toContain('team-llama');
    // The ETag covers the prices: the tag read before the change no longer matches.
    expect(priced.etag).not.toBe(read.headers.get('etag'));
    const stale = await put({ pricing: read.body.pricing }, read.headers.get('etag')!);
    expect(stale.status).toBe(412);

    // From the next request, each costs $0.002: two fit the budget, the third is refused.
    const fresh = await h.issueKey({ scopes: ['chat'], usd_daily_budget: BUDGET });
    const refused = await firstRefusal(h.openaiClient(fresh.key), 4);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as InstanceType<typeof OpenAI.RateLimitError>).error).toMatchObject({
      limit_type: 'key_cost_daily',
    });
    const costs = (await h.usageRows(`key_id=${fresh.id}`))
      .filter((row) => row.status === 200)
      .map((row) => row.cost_usd);
    expect(costs).toEqual([0.002, 0.002]);

    // A reset returns to the file's prices: team-llama is unpriced again, and budgets stop counting it.
    const reset = await put({ reset: true });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ source: 'config', pricing: FILE_PRICING });
    expect(reset.body.unpriced_models).toContain('team-llama');
    const after = await h.issueKey({ scopes: ['chat'], usd_daily_budget: BUDGET });
    expect(await firstRefusal(h.openaiClient(after.key), 3)).toBeUndefined();
  });
});
