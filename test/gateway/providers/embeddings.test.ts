import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base64ToFloats } from '../../../src/server/gateway/formats/embeddings/embeddings-encoding.js';
import { executeEmbeddings, UnsupportedOperationError } from '../../../src/server/gateway/providers/index.js';
import { mockVector, startOpenAIUpstream, type OpenAIUpstream } from '../../support/upstreams/index.js';
import { deployment, NEVER, POOLS } from './helpers.js';

let openai: OpenAIUpstream;
let floatOnly: OpenAIUpstream;
beforeAll(async () => {
  [openai, floatOnly] = await Promise.all([
    startOpenAIUpstream(),
    startOpenAIUpstream({ embeddingsFloatOnly: true, embeddingDimensions: 16 }),
  ]);
});
beforeEach(() => {
  openai.reset();
  floatOnly.reset();
});
afterAll(async () => {
  await Promise.all([openai.close(), floatOnly.close()]);
  await POOLS.close();
});

const embed = (url: string, body: object, apiKeyOverride?: string) =>
  executeEmbeddings({
    requestId: 'test-request',
    pools: POOLS,
    body: { model: 'public-openai', ...body } as never,
    deployment: deployment('openai', url, { upstreamModel: 'text-embedding-3-small' }),
    signal: NEVER,
    apiKeyOverride,
  });

describe('embeddings on an OpenAI-compatible upstream', () => {
  it('forwards the request with the upstream model and answers with the public one', async () => {
    const result = await embed(openai.url, { input: ['a b', 'c'], dimensions: 4, user: 'u' });
    expect(openai.lastRequest()!.path).toBe('/v1/embeddings');
    expect(openai.lastRequest()!.headers.authorization).toBe('Bearer key-openai-secret');
    expect(openai.lastRequest()!.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['a b', 'c'],
      dimensions: 4,
      user: 'u',
    });
    expect(result.body).toEqual({
      object: 'list',
      model: 'public-openai',
      data: [
        { object: 'embedding', index: 0, embedding: mockVector('"a b"', 4) },
        { object: 'embedding', index: 1, embedding: mockVector('"c"', 4) },
      ],
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    expect(result.usage).toEqual({ promptTokens: 3, completionTokens: 0 });
  });

  it('passes base64 through and uses a passthrough key when given', async () => {
    const result = await embed(openai.url, { input: 'hello', encoding_format: 'base64' }, 'sk-caller-own');
    expect(openai.lastRequest()!.headers.authorization).toBe('Bearer sk-caller-own');
    const vector = base64ToFloats(result.body.data[0].embedding as string);
    expect(vector).toEqual(mockVector('"hello"', 8));
  });

  it('encodes base64 and shortens to dimensions when the upstream ignores both', async () => {
    const result = await embed(floatOnly.url, { input: 'hello', encoding_format: 'base64', dimensions: 4 });
    const vector = base64ToFloats(result.body.data[0].embedding as string);
    expect(vector).toHaveLength(4);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    const full = mockVector('"hello"', 16).slice(0, 4);
    const norm = Math.hypot(...full);
    vector.forEach((value, index) => expect(value).toBeCloseTo(full[index] / norm, 5));
  });

  it('maps upstream errors', async () => {
    openai.setNext({ status: 400, error: { message: "'input' is invalid" } });
    await expect(embed(openai.url, { input: 'x' })).rejects.toMatchObject({ status: 400, retryable: false });
  });

  it('refuses Anthropic deployments', async () => {
    const attempt = executeEmbeddings({
      requestId: 'test-request',
      pools: POOLS,
      body: { input: 'x' },
      deployment: deployment('anthropic', 'http://127.0.0.1:9'),
      signal: NEVER,
    });
    await expect(attempt).rejects.toBeInstanceOf(UnsupportedOperationError);
  });
});
