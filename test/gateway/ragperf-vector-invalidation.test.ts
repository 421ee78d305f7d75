import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL, putDocument, rankedAsBefore, searched } from './ragperf-support.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The vectors searched are held in memory between requests; every write to a collection's chunks or
 * vectors (a document replaced or deleted, a vector stored by the background embedding) shows in the
 * very next retrieval, never in one after a while.
 */
const DOCUMENTS = {
  'vacation.txt': 'Employees accrue twenty vacation days yearly.',
  'parking.txt': 'Visitors park behind building seven.',
  'laptops.txt': 'Engineers receive replacement laptops every three years.',
  'badges.txt': 'Badges are blue.',
};
// The mock's vectors are hashes of the text: a question equal to a chunk's text is similarity 1 to it.
const BADGES = 'Badges are renewed every spring at the front desk.';
const LOCKERS = 'Lockers on the third floor are assigned by the office manager.';

describe('RAG vectors in memory follow every write', () => {
  let h: GatewayHarness;
  let client: OpenAI;

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: EMBEDDING_MODEL } });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'handbook' })).status).toBe(201);
    for (const [key, content] of Object.entries(DOCUMENTS)) await putDocument(h, 'handbook', key, content);
    client = h.openaiClient((await h.issueKey({ scopes: ['chat', 'rag:handbook'] })).key);
  });
  afterAll(() => h?.close());

  /** The chunk ids a chat completion on `question` was given, in rank order. */
  async function chunksGiven(question: string): Promise<number[]> {
    const { response } = await client.chat.completions
      .create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
        { headers: { 'x-gatehouse-rag': 'handbook' } },
      )
      .withResponse();
    return (response.headers.get('x-gatehouse-rag-chunks') ?? '').split(',').map((c) => Number(c.split(':')[1]));
  }

  async function chunkIdsOf(key: string): Promise<number[]> {
    const chunks = await h.admin('GET', `/internal/rag/collections/handbook/chunks?limit=100`);
    return (chunks.body.data as Array<{ id: number; document_key: string }>)
      .filter((chunk) => chunk.document_key === key)
      .map((chunk) => chunk.id);
  }

  it('ranks a replaced document by its new vector on the next request', async () => {
    const before = await chunksGiven(BADGES);
    expect(before).toEqual(rankedAsBefore(h, ['handbook'], BADGES, 5).map(([id]) => id));
    await putDocument(h, 'handbook', 'badges.txt', BADGES);
    const [replaced] = await chunkIdsOf('badges.txt');
    const hits = await searched(h, ['handbook'], BADGES, 5);
    expect(hits[0]).toEqual([replaced, 1, 1]);
    expect(hits).toEqual(rankedAsBefore(h, ['handbook'], BADGES, 5));
    expect((await chunksGiven(BADGES))[0]).toBe(replaced);
  });

  it('leaves a deleted document out of the vector ranks on the next request', async () => {
    // Only by vector (no word in common with any document), so the ranks are the vector ranking's.
    const question = 'what is it?';
    const found = await h.admin('POST', '/internal/rag/search', { query: question, collections: ['handbook'] });
    const first = found.body.hits[0] as { document_id: string; vector_rank: number };
    expect(first.vector_rank).toBe(1);
    const deleted = await h.admin('DELETE', `/internal/rag/collections/handbook/documents/${first.document_id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const after = await searched(h, ['handbook'], question, 5);
    expect(after.map(([, , vectorRank]) => vectorRank)).toEqual(after.map((_, index) => index + 1));
    expect(after).toEqual(rankedAsBefore(h, ['handbook'], question, 5));
    expect(await chunksGiven(question)).toEqual(after.map(([id]) => id));
  });

  it('ranks a chunk by the vector the background embedding stored for it on the next request', async () => {
    // The ingest's embedding fails: the chunk is stored for BM25 only.
    h.openai.setNext({ status: 500 });
    await putDocument(h, 'handbook', 'lockers.txt', LOCKERS);
    const [locker] = await chunkIdsOf('lockers.txt');
    // Read into memory while the chunk has no vector; the query's embedding starts the background one.
    expect((await searched(h, ['handbook'], LOCKERS, 5))[0]).toEqual([locker, 1, null]);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const collection = (await h.admin('GET', '/internal/rag/collections/handbook')).body;
      if (collection.embedded_chunks === collection.chunks) break;
      if (Date.now() > deadline) throw new Error('the background embedding did not finish');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await searched(h, ['handbook'], LOCKERS, 5))[0]).toEqual([locker, 1, 1]);
    expect(await searched(h, ['handbook'], LOCKERS, 5)).toEqual(rankedAsBefore(h, ['handbook'], LOCKERS, 5));
  });
});
