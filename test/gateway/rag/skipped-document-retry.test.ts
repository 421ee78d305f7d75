import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../../support/temp-servers.js';

/** Markdown of `count` one-line headings, each of which is a chunk of its own. */
const headings = (count: number): string =>
  Array.from({ length: count }, (_, index) => `# heading ${index}`).join('\n') + '\n';

/**
 * A followed document skipped for making more than rag.max_chunks_per_document chunks is listed on its
 * collection "until a sync finds it within the limit", and the message says to raise the limit. Raising
 * it (a restart) changes nothing in the store, so the branch head is the revision the collection was
 * last synced at: the sync at start and an explicit one must still index the skipped document.
 */
describe('a followed document skipped for its chunks, after the limit is raised', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-skipped-'));
  let servers: TempServers | undefined;
  afterAll(async () => {
    await servers?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (maxChunks: number): Promise<TempServers> =>
    startTempServers({ rag: { max_chunks_per_document: maxChunks } }, { GATEHOUSE_DATA_DIR: dataDir });
  const call = async (url: string, token: string, method: string, body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const admin = (method: string, path: string, body?: unknown) =>
    call(`${servers!.gatewayUrl}${path}`, TEST_MASTER_KEY, method, body);

  it('is indexed by the next sync, and no longer listed', async () => {
    servers = await start(50);
    expect(
      (await admin('POST', '/internal/rag/collections', { name: 'wiki', source: { namespace: 'kb' } })).status,
    ).toBe(201);
    const written = await call(`${servers.storeUrl}/v1/apply`, TEST_STORE_TOKEN, 'POST', {
      scope: { namespace: 'kb', branch: 'main' },
      documents: [
        { key: 'big.md', content: headings(100) },
        { key: 'small.md', content: 'The office opens at seven.' },
      ],
    });
    expect(written.status).toBe(200);
    expect((await admin('POST', '/internal/rag/collections/wiki/sync')).status).toBe(200);
    expect((await admin('GET', '/internal/rag/collections/wiki')).body.skipped_documents).toHaveLength(1);
    await servers.stop();

    servers = await start(1000);
    const synced = await admin('POST', '/internal/rag/collections/wiki/sync');
    expect(synced.status).toBe(200);
    expect(synced.body.skipped).toEqual([]);
    const collection = (await admin('GET', '/internal/rag/collections/wiki')).body;
    expect(collection.skipped_documents).toEqual([]);
    expect(collection.chunks).toBe(101);
    const keys = (await admin('GET', '/internal/rag/collections/wiki/documents')).body.data.map(
      (doc: { key: string }) => doc.key,
    );
    expect(keys.sort()).toEqual(['big.md', 'small.md']);
  });
});
