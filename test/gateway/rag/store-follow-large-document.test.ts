import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Indexing a store document of about 1 MB (thousands of chunks, each indexed for full-text search)
 * takes seconds of work. It must be done in slices: the gateway keeps answering other requests
 * meanwhile, and retrieval sees the document's old chunks or its new ones, never some of each.
 */
describe('RAG sync of a large store document', () => {
  let h: GatewayHarness;
  const scope = { namespace: 'kb/runbooks', branch: 'main' };

  /** About 1 MB of prose in paragraphs, every word marked with `tag`. */
  const largeDocument = (tag: string, sentenceWords: number): string => {
    const sentence = Array.from({ length: sentenceWords }, (_, at) => `${tag}${at % 10}`).join(' ');
    const paragraph = Array.from({ length: 6 }, () => `${sentence}.`).join(' ');
    return Array.from({ length: Math.floor(1_000_000 / (paragraph.length + 2)) }, () => paragraph).join('\n\n');
  };
  const apply = async (content: string): Promise<number> => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents: [{ key: 'runbook.txt', content }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };
  const collection = async (): Promise<{ source_revision: number; chunks: number; documents: number }> =>
    (await h.admin('GET', '/internal/rag/collections/runbooks')).body;
  const documentChunks = async (): Promise<number[]> =>
    (await h.admin('GET', '/internal/rag/collections/runbooks/documents')).body.data.map(
      (document: { chunks: number }) => document.chunks,
    );

  /**
   * Polls over real sockets until the collection is indexed at `revision`: each round asks /healthz,
   * then the collection. Returns the rounds whose /healthz was answered while the sync was still under
   * way, and the chunk counts seen meanwhile.
   */
  async function pollUntilIndexed(revision: number): Promise<{ healthDuringSync: number; seen: Set<string> }> {
    let healthDuringSync = 0;
    const seen = new Set<string>();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const health = await fetch(`${h.url}/healthz`);
      expect(health.status).toBe(200);
      const current = await collection();
      if (current.source_revision === revision) return { healthDuringSync, seen };
      healthDuringSync += 1;
      seen.add(`${current.chunks} ${(await documentChunks()).join(',')}`);
      if (Date.now() > deadline) throw new Error(`collection stayed at revision ${current.source_revision}`);
    }
  }

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { chunk_size: 300, chunk_overlap: 50 } });
    await h.admin('POST', '/internal/rag/collections', { name: 'runbooks', source: scope });
    await h.admin('POST', '/internal/rag/collections/runbooks/sync');
  });
  afterAll(() => h.close());

  it('keeps answering /healthz while a new 1 MB document is chunked and indexed', async () => {
    const revision = await apply(largeDocument('first', 12));
    const { healthDuringSync } = await pollUntilIndexed(revision);
    // Done in one turn of the event loop, the sync let no request in until it ended (and the store's
    // answer to the write came only after it).
    expect(healthDuringSync).toBeGreaterThanOrEqual(3);
    const indexed = await collection();
    expect(indexed.documents).toBe(1);
    expect(indexed.chunks).toBeGreaterThan(3000);
    expect(await documentChunks()).toEqual([indexed.chunks]);
  });

  it('shows the old chunks or the new ones while the document is re-indexed, never a mix', async () => {
    const before = await collection();
    // Longer sentences pack into other chunks: the new version has another chunk count.
    const revision = await apply(largeDocument('second', 17));
    const { healthDuringSync, seen } = await pollUntilIndexed(revision);
    expect(healthDuringSync).toBeGreaterThanOrEqual(3);
    const after = await collection();
    expect(after.chunks).not.toBe(before.chunks);
    const allowed = new Set([`${before.chunks} ${before.chunks}`, `${after.chunks} ${after.chunks}`]);
    for (const counts of seen) expect(allowed).toContain(counts);

    // Retrieval finds the new text only; nothing of the old version is left in the full-text index.
    const search = async (query: string): Promise<string[]> => {
      const answer = await h.admin('POST', '/internal/rag/search', { query, collections: ['runbooks'] });
      expect(answer.status).toBe(200);
      return answer.body.hits.map((hit: { text: string }) => hit.text);
    };
    expect(await search('first3')).toEqual([]);
    const found = await search('second3');
    expect(found.length).toBeGreaterThan(0);
    expect(found.join(' ')).not.toContain('first');
  });
});
