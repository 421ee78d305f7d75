import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { fill, ordinaryWords } from './support/degenerate-texts.js';

/**
 * A document of one-character sentences (". . .") held both services for seconds while it was chunked:
 * 3 MB of it took 3.0 s to ingest against 0.5 s for 3 MB of words. Each kind is timed here on the same
 * machine in the same run, the fastest of two, so only a change in how the work grows can fail it.
 */

describe('RAG indexing of text made of very short sentences', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', { name: 'notes' });
    await h.admin('POST', '/internal/rag/collections', {
      name: 'wiki',
      source: { namespace: 'kb/wiki', branch: 'main' },
    });
  });
  afterAll(() => h.close());

  /** The fastest of two runs of `write`, each writing a document under a key of its own. */
  const fastestMs = async (write: (key: string) => Promise<void>, name: string): Promise<number> => {
    let best = Number.POSITIVE_INFINITY;
    for (const run of [1, 2]) {
      const started = performance.now();
      await write(`${name}-${run}.txt`);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };

  it('through the admin API, 3 MB of ". " takes about what 3 MB of words does', async () => {
    const ingest = (content: string) => async (key: string) => {
      const answer = await h.admin('POST', '/internal/rag/collections/notes/documents', { key, content });
      expect(answer.status).toBe(201);
    };
    const wordsMs = await fastestMs(ingest(ordinaryWords(3 * 1024 * 1024)), 'words');
    const dotsMs = await fastestMs(ingest(fill('. ', 3 * 1024 * 1024)), 'dots');
    console.info(`admin API, 3 MB: ". " ${dotsMs.toFixed(0)} ms, words ${wordsMs.toFixed(0)} ms`);
    expect(dotsMs, `". " took ${dotsMs.toFixed(0)} ms, words ${wordsMs.toFixed(0)} ms`).toBeLessThan(3 * wordsMs);
  });

  it('from a followed store namespace, a document of ". " takes about what one of words does', async () => {
    // The store's default largest document is 1 MB.
    const apply = (content: string) => async (key: string) => {
      const written = await fetch(`${h.servers.storeUrl}/v1/apply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: { namespace: 'kb/wiki', branch: 'main' }, documents: [{ key, content }] }),
      });
      expect(written.status).toBe(200);
      expect((await h.admin('POST', '/internal/rag/collections/wiki/sync')).status).toBe(200);
    };
    const wordsMs = await fastestMs(apply(ordinaryWords(1000 * 1000)), 'words');
    const dotsMs = await fastestMs(apply(fill('. ', 1000 * 1000)), 'dots');
    console.info(`store, 1 MB: ". " ${dotsMs.toFixed(0)} ms, words ${wordsMs.toFixed(0)} ms`);
    expect(dotsMs, `". " took ${dotsMs.toFixed(0)} ms, words ${wordsMs.toFixed(0)} ms`).toBeLessThan(3 * wordsMs);
    const documents = (await h.admin('GET', '/internal/rag/collections/wiki/documents')).body.data;
    expect(documents.map((doc: { key: string }) => doc.key).sort()).toEqual([
      'dots-1.txt',
      'dots-2.txt',
      'words-1.txt',
      'words-2.txt',
    ]);
  });
});
