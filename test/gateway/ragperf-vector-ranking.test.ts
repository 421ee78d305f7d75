import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, QUESTIONS } from './rag/fixtures/corpus.js';
import { EMBEDDING_MODEL, putDocument, rankedAsBefore, searched } from './ragperf-support.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Vectors are searched in memory, not read from SQLite per request; the answers must be the ones the
 * per-request read gave: the same chunks, in the same order, with the same ranks, the floor cutting
 * at the same place. The fixture has equal vectors (a document twice, in one collection and across
 * two) so ties are compared too, and questions with no searchable word rank by vectors alone.
 */
const QUERIES = [...QUESTIONS.map((entry) => entry.question), 'what is it?', 'Who?', CORPUS['vacation.md']!];
const COLLECTIONS = ['handbook', 'faq'];

async function startWithFixture(rag: Record<string, unknown>): Promise<{ h: GatewayHarness; key: string }> {
  const h = await startGatewayHarness({
    rag: { embedding_model: EMBEDDING_MODEL, chunk_size: 300, chunk_overlap: 60, ...rag },
  });
  for (const name of COLLECTIONS)
    expect((await h.admin('POST', '/internal/rag/collections', { name })).status).toBe(201);
  for (const [key, content] of Object.entries(CORPUS)) await putDocument(h, 'handbook', key, content);
  await putDocument(h, 'handbook', 'vacation-copy.md', CORPUS['vacation.md']!);
  await putDocument(h, 'faq', 'vacation.md', CORPUS['vacation.md']!);
  await putDocument(h, 'faq', 'parking.txt', 'Visitors park behind building seven.');
  const collection = (await h.admin('GET', '/internal/rag/collections/handbook')).body;
  expect(collection.embedded_chunks).toBe(collection.chunks);
  const key = (await h.issueKey({ scopes: ['chat', 'rag:*'] })).key;
  return { h, key };
}

describe('RAG vector ranking held in memory', () => {
  let open: { h: GatewayHarness; key: string };
  let floored: { h: GatewayHarness; key: string };

  beforeAll(async () => {
    [open, floored] = await Promise.all([startWithFixture({}), startWithFixture({ min_similarity: 0.3 })]);
  });
  afterAll(() => Promise.all([open?.h.close(), floored?.h.close()]));

  it('ranks every question as reading every vector per request did, without a floor and with one', async () => {
    for (const { h, floor } of [
      { h: open.h, floor: undefined },
      { h: floored.h, floor: 0.3 },
    ])
      for (const query of QUERIES) {
        // Twice: the first builds the vectors in memory, the second uses them as they are.
        for (let round = 0; round < 2; round += 1)
          expect(await searched(h, COLLECTIONS, query, 50), query).toEqual(
            rankedAsBefore(h, COLLECTIONS, query, 50, floor),
          );
      }
  });

  it('puts the same chunks into a chat completion, in the same order', async () => {
    const client = open.h.openaiClient(open.key);
    for (const query of QUERIES.slice(0, 6)) {
      const { response } = await client.chat.completions
        .create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: query }] },
          { headers: { 'x-gatehouse-rag': 'handbook,faq' } },
        )
        .withResponse();
      const cited = (response.headers.get('x-gatehouse-rag-chunks') ?? '')
        .split(',')
        .map((c) => Number(c.split(':')[1]));
      expect(cited, query).toEqual(rankedAsBefore(open.h, COLLECTIONS, query, 5).map(([id]) => id));
    }
  });
});
