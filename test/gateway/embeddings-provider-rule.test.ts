import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_LLM, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A `claude-…` name an admin deployed on an OpenAI-compatible provider (a proxy's name for its model). */
const PROXIED = 'claude-embed-proxy';

/** Whether a model can embed is its provider's to say, deployments first, not its name's prefix. */
describe('embeddings: the provider decides', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({
      llm: { ...HARNESS_LLM, allowed_models: [...HARNESS_LLM.allowed_models, PROXIED] },
      deployments: [
        { id: 'embed-proxy', model: PROXIED, provider: 'openai', upstream_model: 'text-embedding-3-small' },
      ],
    });
    client = h.openaiClient((await h.issueKey({ scopes: ['embeddings'] })).key);
  });
  afterAll(async () => h.close());

  it('embeds with a claude- model deployed on an OpenAI-compatible provider', async () => {
    const result = await client.embeddings.create({ model: PROXIED, input: 'hello' });
    expect(result.data[0]!.embedding.length).toBeGreaterThan(0);
    expect(h.openai.lastRequest()!.body).toMatchObject({ model: 'text-embedding-3-small' });
  });

  it('refuses a model Anthropic serves, naming its provider', async () => {
    const error = (await client.embeddings
      .create({ model: 'claude-opus-4-7', input: 'x' })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain("model 'claude-opus-4-7' does not support embeddings");
    expect(h.openai.requests).toHaveLength(1);
  });
});
