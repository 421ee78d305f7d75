import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL } from './ragperf-support.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Deleting a large embedded collection: it leaves every reader and frees its name as the DELETE
 * answers, and no transaction of the deletion holds the database for more than a slice of its chunks
 * (moving them all aside at once rewrote every chunk and its vector while nothing else reached the
 * database). A gateway stopped half-way leaves the rest for the next start to delete.
 */
describe('RAG deletion of a large embedded collection', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-collection-delete-'));
  let h: GatewayHarness | undefined;
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (): Promise<GatewayHarness> =>
    startGatewayHarness(
      { rag: { embedding_model: EMBEDDING_MODEL, chunk_size: 300, chunk_overlap: 50 } },
      { GATEHOUSE_DATA_DIR: dataDir },
    );
  /** Chunk rows in the database file, hidden ones included (read as another process would). */
  const chunkRows = (): number => {
    const database = new Database(join(dataDir, 'gatehouse.db'), { readonly: true, fileMustExist: true });
    try {
      return (database.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number }).n;
    } finally {
      database.close();
    }
  };
  /** About 1 MB of prose in paragraphs, every word marked with `tag`. */
  const largeDocument = (tag: string): string => {
    const sentence = Array.from({ length: 12 }, (_, at) => `${tag}${at % 10}`).join(' ');
    const paragraph = Array.from({ length: 6 }, () => `${sentence}.`).join(' ');
    return Array.from({ length: Math.floor(1_000_000 / (paragraph.length + 2)) }, () => paragraph).join('\n\n');
  };
  /** A collection `manuals` holding a 1 MB document, every chunk with a vector. */
  const fill = async (gateway: GatewayHarness, tag: string): Promise<number> => {
    expect((await gateway.admin('POST', '/internal/rag/collections', { name: 'manuals' })).status).toBe(201);
    const stored = await gateway.admin('POST', '/internal/rag/collections/manuals/documents', {
      key: 'manual.txt',
      content: largeDocument(tag),
    });
    expect(stored.status).toBe(201);
    const collection = (await gateway.admin('GET', '/internal/rag/collections/manuals')).body;
    expect(collection.chunks).toBeGreaterThan(3000);
    expect(collection.embedded_chunks).toBe(collection.chunks);
    return collection.chunks as number;
  };

  /**
   * Runs `work` with every transaction of this process measured: the most rows (chunks, documents,
   * full-text index entries) any one of them wrote.
   */
  async function largestTransaction(work: () => Promise<void>): Promise<number> {
    const original = Database.prototype.transaction;
    const totals = new WeakMap<Database.Database, Database.Statement>();
    let largest = 0;
    Database.prototype.transaction = function <F extends (...args: any[]) => unknown>(this: Database.Database, fn: F) {
      let total = totals.get(this);
      if (total === undefined) totals.set(this, (total = this.prepare('SELECT total_changes() AS n')));
      const counted = total;
      const changes = (): number => (counted.get() as { n: number }).n;
      return original.call(this, function (this: unknown, ...args: unknown[]) {
        const before = changes();
        try {
          return fn.apply(this, args);
        } finally {
          largest = Math.max(largest, changes() - before);
        }
      }) as unknown as Database.Transaction<F>;
    } as typeof original;
    try {
      await work();
    } finally {
      Database.prototype.transaction = original;
    }
    return largest;
  }

  it('deletes in slices while other requests are answered, and a collection made again never sees the old chunks', async () => {
    h = await start();
    const gateway = h;
    const chunks = await fill(gateway, 'first');

    let answers = 0;
    const largest = await largestTransaction(async () => {
      expect((await gateway.admin('DELETE', '/internal/rag/collections/manuals')).status).toBe(204);
      // Gone at once, and the name free while the old chunks are still being deleted.
      expect((await gateway.admin('GET', '/internal/rag/collections/manuals')).status).toBe(404);
      expect((await gateway.admin('POST', '/internal/rag/collections', { name: 'manuals' })).status).toBe(201);
      const added = await gateway.admin('POST', '/internal/rag/collections/manuals/documents', {
        key: 'fresh.txt',
        content: 'first3 first4 first5: the one paragraph of the collection made again.',
      });
      expect(added.status).toBe(201);
      const search = await gateway.admin('POST', '/internal/rag/search', { query: 'first3', collections: ['manuals'] });
      expect(search.status).toBe(200);
      expect(search.body.hits.map((hit: { document_key: string }) => hit.document_key)).toEqual(['fresh.txt']);
      expect((await gateway.admin('GET', '/internal/rag/collections/manuals')).body).toMatchObject({
        documents: 1,
        chunks: 1,
        embedded_chunks: 1,
      });
      // All of the above ran while the old chunks were left.
      expect(chunkRows()).toBeGreaterThan(chunks / 2);

      const deadline = Date.now() + 120_000;
      while (chunkRows() > 1) {
        const health = await fetch(`${gateway.url}/healthz`);
        expect(health.status).toBe(200);
        answers += 1;
        if (Date.now() > deadline) throw new Error(`${chunkRows()} chunk rows were never deleted`);
      }
    });
    expect(answers).toBeGreaterThanOrEqual(3);
    // A slice is 100 chunks (with their full-text entries): far from the collection's thousands.
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(1000);
    expect((await gateway.admin('GET', '/internal/rag/collections/manuals')).body).toMatchObject({
      documents: 1,
      chunks: 1,
    });
  });

  it('is finished by the next start when the gateway stops half-way', async () => {
    await h?.close();
    h = await start();
    expect((await h.admin('DELETE', '/internal/rag/collections/manuals')).status).toBe(204);
    const chunks = await fill(h, 'second');

    expect((await h.admin('DELETE', '/internal/rag/collections/manuals')).status).toBe(204);
    await h.close();
    h = undefined;
    // Stopped before the deletion's last slice: most of the chunks are still in the file.
    expect(chunkRows()).toBeGreaterThan(chunks / 2);

    h = await start();
    expect(chunkRows()).toBe(0);
    expect((await h.admin('GET', '/internal/rag/collections/manuals')).status).toBe(404);
    expect((await h.admin('GET', '/internal/rag/collections')).body.data).toEqual([]);
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'manuals' })).status).toBe(201);
    const search = await h.admin('POST', '/internal/rag/search', { query: 'second3', collections: ['manuals'] });
    expect(search.body.hits).toEqual([]);
  });
});
