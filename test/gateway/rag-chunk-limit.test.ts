import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Markdown of `count` one-line headings, each of which is a chunk of its own. */
const headings = (count: number): string =>
  Array.from({ length: count }, (_, index) => `# heading ${index}`).join('\n') + '\n';

/**
 * A document of thousands of one-line headings made a chunk per line: 3 MB of them made 786,432
 * chunks and held both services for about 30 s while they were stored. A document may make at most
 * rag.max_chunks_per_document chunks (set low here).
 */
describe('the most chunks one RAG document may make', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { max_chunks_per_document: 50 } });
    await h.admin('POST', '/internal/rag/collections', { name: 'notes' });
    await h.admin('POST', '/internal/rag/collections', {
      name: 'wiki',
      source: { namespace: 'kb/limit', branch: 'main' },
    });
  });
  afterAll(() => h.close());

  const writeStore = async (documents: Record<string, string>): Promise<void> => {
    const written = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: { namespace: 'kb/limit', branch: 'main' },
        documents: Object.entries(documents).map(([key, content]) => ({ key, content })),
      }),
    });
    expect(written.status).toBe(200);
  };
  const keysOf = async (collection: string): Promise<string[]> =>
    (await h.admin('GET', `/internal/rag/collections/${collection}/documents`)).body.data
      .map((doc: { key: string }) => doc.key)
      .sort();

  it('refuses a document over the limit through the admin API with 413 naming the setting, storing nothing', async () => {
    expect(
      (await h.admin('POST', '/internal/rag/collections/notes/documents', { key: 'ok.md', content: headings(50) }))
        .status,
    ).toBe(201);
    const refused = await h.admin('POST', '/internal/rag/collections/notes/documents', {
      key: 'many.md',
      content: headings(51),
    });
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toBe(
      'document many.md makes more than 50 chunks (rag.max_chunks_per_document): split it into smaller documents, or raise the limit',
    );
    expect(await keysOf('notes')).toEqual(['ok.md']);
  });

  it('skips such a document when syncing from the store, indexing the rest, dropping its older chunks and saying so', async () => {
    await writeStore({ 'grows.md': headings(10), 'steady.md': '# Steady\nThe office opens at seven.\n' });
    // A sync queued behind the one the write started: both have run when it answers.
    expect((await h.admin('POST', '/internal/rag/collections/wiki/sync')).status).toBe(200);
    expect(await keysOf('wiki')).toEqual(['grows.md', 'steady.md']);

    await writeStore({ 'grows.md': headings(500), 'new.md': 'Late arrivals sign in at the desk.' });
    expect((await h.admin('POST', '/internal/rag/collections/wiki/sync')).status).toBe(200);
    // Retrieval must not answer from a version the store no longer has.
    expect(await keysOf('wiki')).toEqual(['new.md', 'steady.md']);
    const reason =
      'document grows.md makes more than 50 chunks (rag.max_chunks_per_document): split it into smaller documents, or raise the limit';
    const collection = (await h.admin('GET', '/internal/rag/collections/wiki')).body;
    expect(collection.skipped_documents).toEqual([{ key: 'grows.md', reason }]);

    // Still too big at the next revision: still listed. Once it is split, the list is empty again.
    await writeStore({ 'other.md': 'Badges open the side door.' });
    await h.admin('POST', '/internal/rag/collections/wiki/sync');
    expect((await h.admin('GET', '/internal/rag/collections/wiki')).body.skipped_documents).toEqual([
      { key: 'grows.md', reason },
    ]);
    await writeStore({ 'grows.md': headings(20) });
    expect((await h.admin('POST', '/internal/rag/collections/wiki/sync')).status).toBe(200);
    expect((await h.admin('GET', '/internal/rag/collections/wiki')).body.skipped_documents).toEqual([]);
    expect(await keysOf('wiki')).toEqual(['grows.md', 'new.md', 'other.md', 'steady.md']);
  });

  it('refuses a limit that is not a positive whole number at start, naming the field', async () => {
    await expect(startGatewayHarness({ rag: { max_chunks_per_document: 0 } })).rejects.toThrow(
      /rag\.max_chunks_per_document/,
    );
  });
});
