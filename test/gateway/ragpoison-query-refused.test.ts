import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A query the embedding model refuses (400: too long for it) is one caller's input, not the model
 * failing: the next request's query is still embedded, not ranked by BM25 alone for the cooldown.
 */
describe('a query the embedding model refuses', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    key = (await h.issueKey({ scopes: ['chat', 'rag:*'] })).key;
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'office' })).status).toBe(201);
    const added = await h.admin('POST', '/internal/rag/collections/office/documents', {
      key: 'hours.txt',
      content: 'The office opens at seven and closes at six.',
    });
    expect(added.status).toBe(201);
    h.openai.reset();
  });
  afterAll(() => h?.close());

  const embeddingCalls = (): number =>
    h.openai.requests.filter((request) => request.path.endsWith('/embeddings')).length;
  const ask = (question: string) =>
    h
      .openaiClient(key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: question }] },
        { headers: { 'x-gatehouse-rag': 'office' } },
      )
      .withResponse();

  it('does not pause the embedding of the next query', async () => {
    h.openai.setNext({
      status: 400,
      error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' },
    });
    const refused = await ask('When does the office open?');
    expect(refused.response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^office:/);
    expect(embeddingCalls()).toBe(1);

    const next = await ask('When does it close?');
    expect(next.response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^office:/);
    expect(embeddingCalls()).toBe(2);
  }, 20_000);
});
