import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Chunks indexed while the embedding model failed are stored without a vector and embedded later, "as
 * soon as the model answers again". Only an ingest noticed that: a model that came back and answered
 * requests' query embeddings left those chunks found by BM25 alone, below every chunk both rankings
 * found, until someone ingested another document.
 */
describe('vectors missed while the embedding model failed', () => {
  let h: GatewayHarness;
  let reader: string;
  const collection = async (name: string): Promise<{ chunks: number; embedded_chunks: number }> =>
    (await h.admin('GET', `/internal/rag/collections/${name}`)).body;
  const ingest = async (name: string, key: string, content: string): Promise<void> => {
    const added = await h.admin('POST', `/internal/rag/collections/${name}/documents`, { key, content });
    expect(added.status).toBe(201);
  };
  const ask = (name: string, question: string) =>
    h
      .openaiClient(reader)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: question }] },
        { headers: { 'x-gatehouse-rag': name } },
      );

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    reader = (await h.issueKey({ scopes: ['chat', 'rag:*'] })).key;
  });
  afterAll(() => h.close());

  it('are embedded once a request’s query embedding succeeds again', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'office' });
    await ingest('office', 'hours.txt', 'The office opens at seven and closes at six.');
    h.openai.setDefault({ status: 503 });
    try {
      await ingest('office', 'parking.txt', 'Parking permits come from reception on the ground floor.');
      expect(await collection('office')).toMatchObject({ chunks: 2, embedded_chunks: 1 });
    } finally {
      h.openai.setDefault({});
    }
    h.openai.reset();
    await ask('office', 'When does the office open?');
    // Well within the retry that would come 5 s after the failure: the query's answer started it.
    await expect.poll(async () => (await collection('office')).embedded_chunks, { timeout: 2000 }).toBe(2);
    const embedded = h.openai.requests
      .filter((request) => request.path === '/v1/embeddings')
      .map((request) => (request.body as { input: string[] }).input);
    expect(embedded).toContainEqual(['Parking permits come from reception on the ground floor.']);
  });

  it('are embedded by a retry when no query is embedded to tell (every chunk missed its vector)', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'kitchen' });
    h.openai.setDefault({ status: 503 });
    try {
      await ingest('kitchen', 'rules.txt', 'Clean the coffee machine every Friday afternoon.');
      expect(await collection('kitchen')).toMatchObject({ chunks: 1, embedded_chunks: 0 });
    } finally {
      h.openai.setDefault({});
    }
    // No vector in the collection: a request's query is not embedded, so nothing tells the index the
    // model is back but the retry after the failure.
    await ask('kitchen', 'When is the coffee machine cleaned?');
    await expect.poll(async () => (await collection('kitchen')).embedded_chunks, { timeout: 8000 }).toBe(1);
  }, 15_000);
});
