import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * A collection re-pointed at another namespace while a sync of the old one is embedding: the old
 * sync stops at its next document (no more embeddings calls for a source the collection no longer
 * follows), and the sync queued by the change leaves the collection equal to the new source.
 */
describe('RAG collection re-pointed during a sync', () => {
  let h: GatewayHarness;

  const apply = async (namespace: string, documents: unknown[]): Promise<number> => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { namespace, branch: 'main' }, documents }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };
  /** The inputs of each embeddings call, in order. */
  const embeddingCalls = (): string[][] =>
    h.openai.requests
      .filter((request) => request.path.endsWith('/embeddings'))
      .map((request) => (request.body as { input: string[] }).input);

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
  });
  afterAll(() => h.close());

  it('stops embedding the old source and ends equal to the new one', async () => {
    await apply('kb/old', [
      { key: 'one.md', content: 'Old source, document one about parking.' },
      { key: 'two.md', content: 'Old source, document two about lunch.' },
      { key: 'three.md', content: 'Old source, document three about holidays.' },
    ]);
    const newRevision = await apply('kb/new', [{ key: 'only.md', content: 'New source, the only document.' }]);
    h.openai.reset();
    // The first document's embeddings call is slow: the re-point lands while it is in flight.
    h.openai.setNext({ delayMs: 400 });

    const created = await h.admin('POST', '/internal/rag/collections', {
      name: 'moving',
      source: { namespace: 'kb/old', branch: 'main' },
    });
    expect(created.status).toBe(201);
    await h.openai.waitForRequests(1);
    const patched = await h.admin('PATCH', '/internal/rag/collections/moving', {
      source: { namespace: 'kb/new', branch: 'main' },
    });
    expect(patched.status).toBe(200);

    // Runs after the queued syncs: the collection is then at the new source's head.
    const synced = await h.admin('POST', '/internal/rag/collections/moving/sync');
    expect(synced.status).toBe(200);
    const collection = (await h.admin('GET', '/internal/rag/collections/moving')).body;
    expect(collection).toMatchObject({ source: { namespace: 'kb/new', branch: 'main' }, source_revision: newRevision });
    const documents = (await h.admin('GET', '/internal/rag/collections/moving/documents')).body.data;
    expect(documents.map((doc: { key: string }) => doc.key)).toEqual(['only.md']);

    // Only the call already in flight embedded the old source (a sync batches its documents' chunks).
    const oldCalls = embeddingCalls().filter((inputs) => inputs.some((text) => text.includes('Old source')));
    expect(oldCalls).toHaveLength(1);
    expect(embeddingCalls().some((inputs) => inputs.some((text) => text.includes('New source')))).toBe(true);
  });
});
