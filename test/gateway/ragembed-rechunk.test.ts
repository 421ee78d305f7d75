import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  gatewayAdmin,
  startTempServers,
  storeCaller,
  TEST_STORE_TOKEN,
  type TempServers,
} from '../support/temp-servers.js';

/**
 * A document's chunks depend on `rag.chunk_size` and `rag.chunk_overlap`: restarting with other
 * settings re-chunks the documents of a store-backed collection, though the store did not change.
 */
describe('a changed chunk size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ragembed-rechunk-'));
  let servers: TempServers | undefined;
  const admin = gatewayAdmin(() => servers!);
  const store = storeCaller(() => servers!);
  const start = async (chunkSize: number, chunkOverlap: number) => {
    servers = await startTempServers(
      { rag: { chunk_size: chunkSize, chunk_overlap: chunkOverlap } },
      { GATEHOUSE_DATA_DIR: dir },
    );
  };
  const chunks = async (): Promise<number> => (await admin('GET', '/internal/rag/collections/guide')).body.chunks;
  afterAll(async () => {
    await servers?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-chunks the documents at the next start', async () => {
    await start(800, 150);
    const paragraphs = Array.from(
      { length: 8 },
      (_, index) =>
        `Paragraph ${index} says something about rule ${index} of the guide, in a sentence or two of words.`,
    );
    const scope = { namespace: 'kb/guide', branch: 'main' };
    const applied = await store('/v1/apply', TEST_STORE_TOKEN, {
      scope,
      documents: [{ key: 'guide.md', content: paragraphs.join('\n\n') }],
    });
    expect(applied.status).toBe(200);
    expect((await admin('POST', '/internal/rag/collections', { name: 'guide', source: scope })).status).toBe(201);
    expect((await admin('POST', '/internal/rag/collections/guide/sync')).status).toBe(200);
    const before = await chunks();
    await servers!.stop();
    servers = undefined;

    await start(200, 20);
    await expect.poll(chunks, { timeout: 5000 }).toBeGreaterThan(before);
  });
});
