import Database from 'better-sqlite3';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * The admin usage reads write the rows waiting in memory first. While another process holds the
 * database's write lock they cannot, and the answer says how many answered requests it leaves out,
 * rather than looking complete.
 */
describe('the admin usage reads while another process holds the write lock', () => {
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    servers = await startTempServers();
    servers.database.lock.configure({ waitMs: 200 });
    client = await openAIClientWithNewKey(servers, { name: 'usage-pending' });
  });
  afterAll(async () => servers?.stop());

  const chat = () =>
    client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello' }] });
  const read = (path: string) =>
    fetch(`${servers.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });

  it('names the rows not in the figures in a header and a field, and leaves both out once they are written', async () => {
    const other = new Database(join(servers.dataDir, 'gatehouse.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      for (let index = 0; index < 5; index += 1) await chat();

      for (const path of ['/internal/usage', '/internal/usage/logs?limit=100']) {
        const response = await read(path);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-gatehouse-usage-pending')).toBe('5');
        const body = (await response.json()) as { pending_rows?: number; pending_reason?: string };
        expect(body.pending_rows).toBe(5);
        expect(body.pending_reason).toBe('locked');
      }

      other.exec('COMMIT');
      await expect
        .poll(async () => ((await (await read('/internal/usage/logs?limit=100')).json()) as { data: unknown[] }).data)
        .toHaveLength(5);
      const after = await read('/internal/usage/logs?limit=100');
      expect(after.headers.get('x-gatehouse-usage-pending')).toBeNull();
      const body = (await after.json()) as Record<string, unknown>;
      expect(body).not.toHaveProperty('pending_rows');
      expect(body).not.toHaveProperty('pending_reason');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  }, 20_000);
});
