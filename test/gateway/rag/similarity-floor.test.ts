import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * `rag.min_similarity` keeps chunks whose vectors say nothing about the question out of the answer:
 * without it, a question about nothing in the collections still got `top_k` chunks, ranked by vector
 * noise, and each cost the request context tokens.
 */
const DOCUMENTS = {
  'vacation.txt': 'Employees accrue twenty vacation days yearly.',
  'parking.txt': 'Visitors park behind building seven.',
  'laptops.txt': 'Engineers receive replacement laptops every three years.',
};

interface Hit {
  document_key: string;
  bm25_rank: number | null;
  vector_rank: number | null;
}

async function search(h: GatewayHarness, query: string): Promise<Hit[]> {
  const found = await h.admin('POST', '/internal/rag/search', { query, collections: ['handbook'] });
  expect(found.status).toBe(200);
  return found.body.hits;
}

describe('RAG similarity floor', () => {
  let floor: GatewayHarness;
  let open: GatewayHarness;

  beforeAll(async () => {
    // The mock upstream's vectors are hashes of the text: a question equal to a document is similarity
    // 1 to it, anything else is noise well below 0.99.
    const rag = { embedding_model: 'text-embedding-3-small' };
    [floor, open] = await Promise.all([
      startGatewayHarness({ rag: { ...rag, min_similarity: 0.99 } }),
      startGatewayHarness({ rag }),
    ]);
    for (const h of [floor, open]) {
      expect((await h.admin('POST', '/internal/rag/collections', { name: 'handbook' })).status).toBe(201);
      for (const [key, content] of Object.entries(DOCUMENTS))
        expect((await h.admin('POST', '/internal/rag/collections/handbook/documents', { key, content })).status).toBe(
          201,
        );
    }
  });
  afterAll(() => Promise.all([floor?.close(), open?.close()]));

  it('gives a question that matches nothing no context, where every chunk used to be ranked', async () => {
    expect((await search(open, 'quarterly revenue forecast')).length).toBe(3);
    expect(await search(floor, 'quarterly revenue forecast')).toEqual([]);
  });

  it('still ranks a chunk above the floor by its vector, and one below it by its words', async () => {
    const same = await search(floor, DOCUMENTS['parking.txt']);
    expect(same.map((hit) => [hit.document_key, hit.vector_rank])).toEqual([['parking.txt', 1]]);
    const byWord = await search(floor, 'how many vacation days');
    expect(byWord.map((hit) => [hit.document_key, hit.bm25_rank, hit.vector_rank])).toEqual([
      ['vacation.txt', 1, null],
    ]);
  });

  it('refuses a floor outside cosine similarity, naming the setting', async () => {
    await expect(startGatewayHarness({ rag: { min_similarity: 1.5 } })).rejects.toThrow(/rag\.min_similarity/);
  });
});
