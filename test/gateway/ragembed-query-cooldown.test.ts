import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * An embeddings provider that accepts connections and never answers: a request's query embedding
 * gives up after `rag.query_embedding_timeout_ms`, and the requests that follow within the cooldown
 * are ranked by BM25 alone without waiting on the model again. A client that leaves cancels its
 * query's embedding call.
 */
describe('query embeddings of a model that hangs', () => {
  const embeddingCalls = (h: GatewayHarness) =>
    h.openai.requests.filter((request) => request.path.endsWith('/embeddings')).length;
  const ask = (h: GatewayHarness, key: string, question: string, signal?: AbortSignal) =>
    h
      .openaiClient(key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: question }] },
        { headers: { 'x-gatehouse-rag': 'office' }, signal },
      )
      .withResponse();
  const setUp = async (queryTimeoutMs: number): Promise<{ h: GatewayHarness; key: string }> => {
    const h = await startGatewayHarness({
      rag: { embedding_model: 'text-embedding-3-small', query_embedding_timeout_ms: queryTimeoutMs },
    });
    const key = (await h.issueKey({ scopes: ['chat', 'rag:*'] })).key;
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'office' })).status).toBe(201);
    const added = await h.admin('POST', '/internal/rag/collections/office/documents', {
      key: 'hours.txt',
      content: 'The office opens at seven and closes at six.',
    });
    expect(added.status).toBe(201);
    h.openai.reset();
    h.openai.setDefault({ hang: true });
    return { h, key };
  };

  describe('with a short query timeout', () => {
    let h: GatewayHarness;
    let key: string;
    beforeAll(async () => ({ h, key } = await setUp(300)));
    afterAll(() => h?.close());

    it('waits on the model once, then answers from BM25 alone during the cooldown', async () => {
      for (const question of ['When does the office open?', 'When does it close?', 'Is the office open at six?']) {
        const { response } = await ask(h, key, question);
        // BM25 still finds the chunk by its words.
        expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^office:/);
      }
      expect(embeddingCalls(h)).toBe(1);
    }, 20_000);
  });

  describe('with a long query timeout', () => {
    let h: GatewayHarness;
    let key: string;
    beforeAll(async () => ({ h, key } = await setUp(120_000)));
    afterAll(() => h?.close());

    it('cancels the query embedding when the client leaves', async () => {
      const client = new AbortController();
      const asked = ask(h, key, 'When does the office open?', client.signal);
      asked.catch(() => undefined);
      await h.openai.waitForRequests(1);
      const index = h.openai.requests.findIndex((request) => request.path.endsWith('/embeddings'));
      client.abort();
      await expect(asked).rejects.toThrow();
      expect(await h.openai.waitForOutcome(index, 5000)).toBe('aborted');
    }, 20_000);
  });
});
