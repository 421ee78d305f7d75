import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Deleting a document of thousands of chunks, or a collection holding one, takes each chunk out of the
 * full-text index: seconds of work. Readers must lose it at once, and the chunks go in slices after the
 * answer, the gateway answering other requests meanwhile.
 */
describe('RAG deletion of a large document or collection', () => {
  let h: GatewayHarness;
  let database: Database.Database;
  const scope = { namespace: 'kb/manuals', branch: 'main' };

  /** About 1 MB of prose in paragraphs, every word marked with `tag`. */
  const largeDocument = (tag: string): string => {
    const sentence = Array.from({ length: 12 }, (_, at) => `${tag}${at % 10}`).join(' ');
    const paragraph = Array.from({ length: 6 }, () => `${sentence}.`).join(' ');
    return Array.from({ length: Math.floor(1_000_000 / (paragraph.length + 2)) }, () => paragraph).join('\n\n');
  };
  const apply = async (document: { key: string; content?: string; delete?: true }): Promise<number> => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents: [document] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };
  const collection = async (): Promise<{ status: number; body: any }> =>
    h.admin('GET', '/internal/rag/collections/manuals');
  const waitForRevision = async (revision: number): Promise<void> => {
    const deadline = Date.now() + 120_000;
    while ((await collection()).body.source_revision !== revision) {
      if (Date.now() > deadline) throw new Error(`collection never reached revision ${revision}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const search = async (query: string): Promise<number> => {
    const answer = await h.admin('POST', '/internal/rag/search', { query, collections: ['manuals'] });
    expect(answer.status).toBe(200);
    return answer.body.hits.length;
  };
  /** Chunk rows in the database file, hidden ones included (read as another process would). */
  const chunkRows = (): number => (database.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number }).n;

  /**
   * Asks /healthz over real sockets, one request after the other, until no chunk row is left; counts
   * those answered after `deleted()` said readers had lost the chunks while rows were still left.
   */
  async function healthAnswersWhileDeleting(deleted: () => Promise<boolean>): Promise<number> {
    let answers = 0;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const health = await fetch(`${h.url}/healthz`);
      expect(health.status).toBe(200);
      if (chunkRows() === 0) return answers;
      if (await deleted()) answers += 1;
      if (Date.now() > deadline) throw new Error(`${chunkRows()} chunk rows were never deleted`);
    }
  }

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { chunk_size: 300, chunk_overlap: 50 } });
    database = new Database(join(h.servers.dataDir, 'gatehouse.db'), { readonly: true, fileMustExist: true });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'manuals', source: scope })).status).toBe(201);
    await h.admin('POST', '/internal/rag/collections/manuals/sync');
  });
  afterAll(async () => {
    database.close();
    await h.close();
  });

  it('takes a 1 MB document deleted in the store out of retrieval at once, and its chunks in slices', async () => {
    await waitForRevision(await apply({ key: 'manual.txt', content: largeDocument('first') }));
    expect((await collection()).body.chunks).toBeGreaterThan(3000);
    expect(await search('first3')).toBeGreaterThan(0);

    const revision = await apply({ key: 'manual.txt', delete: true });
    const answers = await healthAnswersWhileDeleting(
      async () => (await collection()).body.source_revision === revision,
    );
    // Deleted in one statement, the chunks left the database before the sync could say so.
    expect(answers).toBeGreaterThanOrEqual(3);
    expect((await collection()).body).toMatchObject({ documents: 0, chunks: 0 });
    expect(await search('first3')).toBe(0);
  });

  it('deletes a collection with a 1 MB document at once for readers, its name free, its chunks in slices', async () => {
    await waitForRevision(await apply({ key: 'manual.txt', content: largeDocument('second') }));
    expect((await collection()).body.chunks).toBeGreaterThan(3000);

    let answered = false;
    const deletion = h.admin('DELETE', '/internal/rag/collections/manuals').then((answer) => {
      answered = true;
      return answer;
    });
    let reused = false;
    const answers = await healthAnswersWhileDeleting(async () => {
      if (!answered) return false;
      if (!reused) {
        // Gone for readers, and its name free, while its chunks are still being deleted.
        expect((await collection()).status).toBe(404);
        expect((await h.admin('GET', '/internal/rag/collections')).body.data).toEqual([]);
        const again = await h.admin('POST', '/internal/rag/collections', { name: 'manuals' });
        expect(again.status).toBe(201);
        expect(again.body).toMatchObject({ documents: 0, chunks: 0 });
        expect(await search('second3')).toBe(0);
        reused = true;
      }
      return true;
    });
    expect((await deletion).status).toBe(204);
    expect(reused).toBe(true);
    expect(answers).toBeGreaterThanOrEqual(3);
    expect((await collection()).body).toMatchObject({ documents: 0, chunks: 0 });
  });
});
