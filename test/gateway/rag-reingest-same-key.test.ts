import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Posting a document again under its key made a new document id and new chunk ids (so citations
 * changed) and paid for embedding again, even with the very same content; and a client that kept the
 * id from the first answer could no longer delete the document by it.
 */
describe('ingesting a document again under the same key', () => {
  let h: GatewayHarness;
  const CONTENT = '# Parking\n\nPermits come from reception. Visitors park on level two.';
  const put = (content: string) =>
    h.admin('POST', '/internal/rag/collections/facilities/documents', { key: 'parking.md', content });
  const chunkIds = async (): Promise<number[]> =>
    ((await h.admin('GET', '/internal/rag/collections/facilities/chunks')).body.data as Array<{ id: number }>).map(
      (chunk) => chunk.id,
    );
  const embeddingCalls = (): number => h.openai.requests.filter((request) => request.path === '/v1/embeddings').length;
  const putEvents = async (): Promise<unknown[]> =>
    ((await h.admin('GET', '/internal/audit?limit=100')).body.data as Array<{ action: string; target: string }>).filter(
      (event) => event.action === 'rag.document.put' && event.target === 'facilities',
    );

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    await h.admin('POST', '/internal/rag/collections', { name: 'facilities' });
  });
  afterAll(() => h.close());

  it('keeps the document, its chunks and their vectors when the content is the same, and says so', async () => {
    const first = await put(CONTENT);
    expect(first.status).toBe(201);
    expect(first.body.change).toBe('added');
    const chunks = await chunkIds();
    const events = (await putEvents()).length;
    expect(events).toBe(1);
    h.openai.reset();
    const again = await put(CONTENT);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, change: 'unchanged', updated_at: first.body.updated_at });
    expect(await chunkIds()).toEqual(chunks);
    expect(embeddingCalls()).toBe(0);
    // Nothing changed, so nothing is audited.
    expect(await putEvents()).toHaveLength(events);
  });

  it('keeps the document id when the content changes, so a kept id still deletes it', async () => {
    const before = (await h.admin('GET', '/internal/rag/collections/facilities/documents')).body.data[0];
    const changed = await put(`${CONTENT}\n\nBikes go in the courtyard.`);
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({ id: before.id, change: 'updated' });
    const documents = (await h.admin('GET', '/internal/rag/collections/facilities/documents')).body.data;
    expect(documents).toHaveLength(1);
    expect(documents[0].id).toBe(before.id);
    const texts = ((await h.admin('GET', '/internal/rag/collections/facilities/chunks')).body.data as any[]).map(
      (chunk) => chunk.text,
    );
    expect(texts.join('\n')).toContain('Bikes go in the courtyard.');
    expect((await h.admin('DELETE', `/internal/rag/collections/facilities/documents/${before.id}`)).status).toBe(204);
    expect((await h.admin('GET', '/internal/rag/collections/facilities/documents')).body.data).toEqual([]);
  });
});
