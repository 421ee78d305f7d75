import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * A sync of a store-backed collection that fails (here its writes meet a database another process
 * holds locked) is logged and tried again with the next revision; it must never surface as an
 * unhandled rejection, which ends a Node process, and with it both services.
 */
describe('a failed sync of a collection that follows the store', () => {
  let h: GatewayHarness;
  const scope = { namespace: 'kb/failing', branch: 'main' };
  const apply = async (content: string) => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents: [{ key: 'notes.md', content }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { revision: number }).revision;
  };
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'failing', source: scope })).status).toBe(201);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h.close();
  });

  it('leaves no unhandled rejection and indexes the revision by itself once the lock is free', async () => {
    h.servers.database.lock.configure({ waitMs: 100 });
    // The sync waits on the embedding provider; the lock is taken meanwhile, before it writes chunks.
    h.openai.setDefault({ delayMs: 400 });
    const other = new Database(join(h.servers.dataDir, 'gatehouse.db'));
    let revision: number;
    try {
      revision = await apply('# Notes\n\nThe version written while the database was locked.');
      other.exec('BEGIN IMMEDIATE');
      await h.openai.waitForRequests(1);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(unhandled).toEqual([]);
      expect((await h.admin('GET', '/internal/rag/collections/failing')).body.source_revision).toBe(0);
      h.openai.setDefault({});
      other.exec('COMMIT');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }

    // No new write comes: the failed sync is tried again (after 5 s).
    await expect
      .poll(async () => (await h.admin('GET', '/internal/rag/collections/failing')).body.source_revision, {
        timeout: 9000,
        interval: 250,
      })
      .toBe(revision);
    const chunks = (await h.admin('GET', '/internal/rag/collections/failing/chunks')).body.data as { text: string }[];
    expect(chunks.map((chunk) => chunk.text).join('\n')).toContain('written while the database was locked');
    expect(unhandled).toEqual([]);
  }, 20_000);
});
