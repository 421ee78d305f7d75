import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { importLiteLlmConfig } from '../../src/server/config/litellm-import.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/**
 * LiteLLM prices an embeddings model by its input alone (`model_info.mode: embedding` with only
 * `input_cost_per_token`): it has no output tokens. The import used to drop such a price, saying
 * Gatehouse needs both, so the imported model's usage cost nothing.
 */
describe('a LiteLLM embeddings model priced by its input', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  const UPSTREAM_KEY = 'sk-embeddings-upstream-0123456789';

  const liteLlm = (base: string) => `model_list:
  - model_name: embedder
    litellm_params:
      model: openai/text-embedding-3-small
      api_base: ${base}
      api_key: ${UPSTREAM_KEY}
    model_info:
      mode: embedding
      input_cost_per_token: 0.00000002
  - model_name: chatter
    litellm_params:
      model: openai/gpt-4o-mini
      api_base: ${base}
      api_key: ${UPSTREAM_KEY}
      input_cost_per_token: 0.00000015
      cache_read_input_token_cost: 0.000000075
`;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    const { config, unmapped } = importLiteLlmConfig(parseYaml(liteLlm(upstream.url)));
    // A chat model priced by one side only is still reported, where the price was written.
    expect(unmapped).toEqual([
      {
        path: 'model_list[1].litellm_params.input_cost_per_token',
        reason: expect.stringContaining('add output_cost_per_token'),
      },
      // And so is a cache price, which Gatehouse takes only beside both.
      {
        path: 'model_list[1].litellm_params.cache_read_input_token_cost',
        reason: expect.stringContaining('only beside input_cost_per_token and output_cost_per_token'),
      },
    ]);
    expect(config.pricing).toEqual({ embedder: { input_per_mtok: 0.02, output_per_mtok: 0 } });
    servers = await startTempServers(config as Record<string, unknown>);
  });
  afterAll(async () => {
    await servers?.stop();
    await upstream?.close();
  });

  it('charges the embeddings it serves at the imported input price', async () => {
    const issued = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'embedder', scopes: ['embeddings'] }),
    });
    const { key } = (await issued.json()) as { key: string };
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const answer = await client.embeddings.create({ model: 'embedder', input: 'hello there' });
    const tokens = answer.usage.prompt_tokens;
    expect(tokens).toBeGreaterThan(0);
    const logs = await fetch(`${servers.gatewayUrl}/internal/usage/logs?model=embedder`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    const [row] = ((await logs.json()) as { data: { cost_usd: number }[] }).data;
    expect(row!.cost_usd).toBeCloseTo(tokens * 0.00000002, 12);
  });
});
