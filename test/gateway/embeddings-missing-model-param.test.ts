import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Without `model` and without `llm.default_embedding_model`, the refusal names `model` as its `param`. */
describe('embeddings without a model and no default model', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({ llm: { allowed_models: ['text-embedding-3-small'] } });
    client = h.openaiClient((await h.issueKey({ scopes: ['embeddings'] })).key);
  });
  afterAll(async () => h.close());

  it('is a 400 whose param is model', async () => {
    const error = await client.embeddings
      .create({ input: 'x' } as unknown as OpenAI.EmbeddingCreateParams)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refusal = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refusal.message).toContain('model is required');
    expect(refusal.param).toBe('model');
  });
});
