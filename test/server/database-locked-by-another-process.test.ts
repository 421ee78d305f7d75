import Database from 'better-sqlite3';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

// Another process holding SQLite's write lock (DB Browser with unsaved edits, a sqlite3 shell inside a
// transaction): better-sqlite3 waits synchronously, so both services stall while a write waits. They
// may stall for the first write only; the gateway keeps answering and keeps its bookkeeping for later.

const WAIT_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the database locked by another process', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  let other: Database.Database;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
    servers = await startTempServers({
      llm: { allowed_models: ['m'] },
      deployments: [{ id: 'd', model: 'm', provider: 'openai', upstream_model: 'x', base_url: upstream.url }],
    });
    // The servers wait 5 s for the lock; a shorter first wait keeps the test quick, the rest is as shipped.
    servers.database.lock.configure({ waitMs: WAIT_MS });
    client = await openAIClientWithNewKey(servers, { name: 'locked' });
    other = new Database(join(servers.dataDir, 'gatehouse.db'));
  });
  afterAll(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await servers.stop();
    await upstream.close();
  });

  const chat = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  const admin = async (path: string) => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    return (await response.json()) as { data: unknown[] };
  };
  const storeWrite = async () => {
    const started = performance.now();
    const response = await fetch(`${servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { namespace: 'locked' }, documents: [{ key: 'a', content: String(started) }] }),
    });
    return { status: response.status, ms: performance.now() - started, body: await response.text() };
  };

  it('stalls the services once, answers chat meanwhile, refuses store writes at once, and writes usage after', async () => {
    await chat();
    other.exec('BEGIN IMMEDIATE');

    // The first write to wait for the lock (a usage batch, the key's last use or this one) waits it out.
    const first = await storeWrite();
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body).error.message).toMatch(/database is locked by another connection/);

    // From then on writes no longer wait: a store write is refused at once, chat answers go on.
    for (let index = 0; index < 5; index += 1) {
      const started = performance.now();
      expect((await chat()).choices[0]!.message.content).toBeTypeOf('string');
      expect(performance.now() - started).toBeLessThan(WAIT_MS / 2);
    }
    const refused = await storeWrite();
    expect(refused.status).toBe(503);
    expect(refused.ms).toBeLessThan(WAIT_MS / 2);
    // Longer than the keys' last-use interval (1 s): its timer meets the lock too, and must not end the process.
    await sleep(1200);
    const heldRows = (await admin('/internal/usage/logs?limit=100')).data.length;
    expect(heldRows).toBeLessThan(6);

    other.exec('COMMIT');
    // Once the lock is free, the rows held in memory are written: six answered chats, six rows.
    let rows = 0;
    for (let tries = 0; tries < 40 && rows < 6; tries += 1) {
      await sleep(100);
      rows = (await admin('/internal/usage/logs?limit=100')).data.length;
    }
    expect(rows).toBe(6);
    expect((await storeWrite()).status).toBe(200);
    // The key's last use, noted while the lock was held, is written too.
    type Key = { name: string; last_used_at: string | null };
    await expect
      .poll(async () => ((await admin('/internal/api-keys')).data as Key[]).find((key) => key.name === 'locked'))
      .toMatchObject({ last_used_at: expect.any(String) });
  }, 20_000);
});
