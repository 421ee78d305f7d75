import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A sync embeds the chunks of many small documents in one embeddings call, not one call per
 * document, and still stores each document with its own chunks and vectors.
 */
describe('embedding during a sync of a store-backed collection', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
  });
  afterAll(() => h.close());

  it('embeds 20 small documents in one call', async () => {
    const scope = { namespace: 'kb/many', branch: 'main' };
    const documents = Array.from({ length: 20 }, (_, index) => ({
      key: `note-${String(index).padStart(2, '0')}.md`,
      content: `# Note ${index}\n\nNote number ${index} is about topic ${index}.`,
    }));
    const applied = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(applied.status).toBe(200);
    h.openai.reset();
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'many', source: scope })).status).toBe(201);
    const synced = await h.admin('POST', '/internal/rag/collections/many/sync');
    expect(synced.status).toBe(200);

    const calls = h.openai.requests.filter((request) => request.path.endsWith('/embeddings'));
    expect(calls).toHaveLength(1);
    expect((calls[0]!.body as { input: string[] }).input).toHaveLength(20);
    const collection = (await h.admin('GET', '/internal/rag/collections/many')).body;
    expect(collection).toMatchObject({ documents: 20, chunks: 20, embedded_chunks: 20 });
    const chunks = (await h.admin('GET', '/internal/rag/collections/many/chunks?limit=100')).body.data as Array<{
      document_key: string;
      text: string;
    }>;
    for (const chunk of chunks) expect(chunk.text).toContain(`Note number ${Number(chunk.document_key.slice(5, 7))} `);
  });
});
