import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const DOCUMENTS = 1201; // three pages of the follower's 500

/**
 * A collection following a large branch reads it a page at a time, every page at one revision:
 * every document is indexed however many pages the branch takes, and a later sync removes exactly
 * the documents deleted in the store.
 */
describe('a store-backed collection over a branch of several pages', () => {
  let h: GatewayHarness;
  const scope = { namespace: 'kb/large', branch: 'main' };

  const apply = async (documents: unknown[]): Promise<number> => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };
  const collectionAt = async (revision: number): Promise<{ documents: number; chunks: number }> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const collection = (await h.admin('GET', '/internal/rag/collections/large')).body;
      if (collection.source_revision === revision) return collection;
      if (Date.now() > deadline) throw new Error(`collection stayed at revision ${collection.source_revision}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('indexes every document of the branch, then drops exactly those deleted', async () => {
    const documents = Array.from({ length: DOCUMENTS }, (_, index) => ({
      key: `notes/${String(index).padStart(4, '0')}.txt`,
      content: `Note ${index}: the answer to question ${index} is ${index * 7}.`,
    }));
    const first = await apply(documents);
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'large', source: scope })).status).toBe(201);
    expect(await collectionAt(first)).toMatchObject({ documents: DOCUMENTS, chunks: DOCUMENTS });

    // One deleted on each page, and the very last key.
    const deleted = ['notes/0000.txt', 'notes/0600.txt', 'notes/1200.txt'];
    const second = await apply(deleted.map((key) => ({ key, delete: true })));
    expect(await collectionAt(second)).toMatchObject({ documents: DOCUMENTS - 3, chunks: DOCUMENTS - 3 });
  });
});
