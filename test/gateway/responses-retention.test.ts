import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/server/config/schema.js';
import { spawnHeadless } from '../support/headless-process.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** HTTP status of a call: 200 when it succeeds. */
const status = (call: Promise<unknown>): Promise<number | undefined> =>
  call.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );

/** Kept rows of a response id (the input items live in the same row). */
const keptRows = (servers: TempServers, id: string): number =>
  (
    servers.database.sqlite.prepare('SELECT count(*) AS n FROM gateway_responses WHERE id = ?').get(id) as {
      n: number;
    }
  ).n;

/** Makes a kept response look `days` old. */
function age(servers: TempServers, id: string, days: number): void {
  servers.database.sqlite
    .prepare('UPDATE gateway_responses SET created_at = ? WHERE id = ?')
    .run(Date.now() - days * DAY_MS, id);
}

/** Kept rows `days` old, written directly: a backlog of a gateway that chatted all day for months. */
function insertOld(servers: TempServers, count: number, days: number, prefix = 'resp_backlog_'): void {
  const insert = servers.database.sqlite.prepare(
    `INSERT INTO gateway_responses (id, key_id, response, input_items, created_at) VALUES (?, 'key_gone', '{"status":"completed"}', '[]', ?)`,
  );
  const createdAt = Date.now() - days * DAY_MS;
  servers.database.sqlite.transaction(() => {
    for (let index = 0; index < count; index++) insert.run(`${prefix}${index}`, createdAt);
  })();
}

const backlog = (servers: TempServers, prefix = 'resp_backlog_'): number =>
  (
    servers.database.sqlite
      .prepare('SELECT count(*) AS n FROM gateway_responses WHERE id LIKE ?')
      .get(`${prefix}%`) as { n: number }
  ).n;

/** The purge the hourly timer runs. */
const purge = (servers: TempServers): Promise<number> => servers.gateway.responsesRetention.purgeExpired();

describe('kept responses past responses.retention_days (30 by default)', () => {
  let h: GatewayHarness;
  let client: OpenAI;

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
  });
  beforeEach(() => h.openai.reset());
  afterAll(async () => h.close());

  it('defaults to 30 days', () => {
    expect(configSchema.parse({}).responses.retention_days).toBe(30);
  });

  it('are deleted with their input items; younger ones are kept', async () => {
    const old = await client.responses.create({ model: 'demo/echo', input: 'from last month', store: true });
    const recent = await client.responses.create({ model: 'demo/echo', input: 'from last week', store: true });
    const fresh = await client.responses.create({ model: 'demo/echo', input: 'from today', store: true });
    age(h.servers, old.id, 31);
    age(h.servers, recent.id, 29);

    expect(await purge(h.servers)).toBe(1);

    expect(await status(client.responses.retrieve(old.id))).toBe(404);
    expect(await status(client.responses.inputItems.list(old.id))).toBe(404);
    expect(keptRows(h.servers, old.id)).toBe(0);
    for (const kept of [recent, fresh]) {
      expect((await client.responses.retrieve(kept.id)).id).toBe(kept.id);
      expect((await client.responses.inputItems.list(kept.id)).data).toHaveLength(1);
    }
    expect(await purge(h.servers)).toBe(0);
  });

  it('expire one by one: an expired turn cannot be continued (400), a newer one continues without it', async () => {
    const first = await client.responses.create({ model: 'demo/echo', input: 'I live in Oslo.', store: true });
    const second = await client.responses.create({
      model: 'demo/echo',
      input: 'I like rain.',
      store: true,
      previous_response_id: first.id,
    });
    age(h.servers, first.id, 40);
    expect(await purge(h.servers)).toBe(1);

    const expired = await client.responses
      .create({ model: 'gpt-4o-mini', input: 'where do I live?', previous_response_id: first.id })
      .catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(OpenAI.BadRequestError);
    expect((expired as Error).message).toContain('previous_response_id');
    expect((expired as Error).message).toContain(first.id);

    await client.responses.create({ model: 'gpt-4o-mini', input: 'what do I like?', previous_response_id: second.id });
    const sent = JSON.stringify(h.openai.requests.at(-1)!.body);
    expect(sent).toContain('I like rain.');
    expect(sent).not.toContain('I live in Oslo.');
  });

  it('deletes a large backlog in batches, letting other work run between them', async () => {
    insertOld(h.servers, 1234, 90);
    const purging = purge(h.servers);
    let leftWhenOthersRan: number | undefined;
    setImmediate(() => (leftWhenOthersRan = backlog(h.servers)));
    expect(await purging).toBe(1234);
    expect(leftWhenOthersRan).toBeGreaterThan(0);
    expect(leftWhenOthersRan).toBeLessThan(1234);
    expect(backlog(h.servers)).toBe(0);
  });
});

describe('the purge at start', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The headless server over `dataDir` until it has started, then stopped: its log lines. */
  async function startAndStop(dataDir: string): Promise<Array<{ level: number; msg: string; purged?: number }>> {
    const server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: dataDir,
      PROXY_MASTER_KEY: TEST_MASTER_KEY,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    return server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; purged?: number });
  }

  let dataDir: string;
  const purgedLines = (lines: Awaited<ReturnType<typeof startAndStop>>) =>
    lines.filter((line) => line.msg.includes('responses.retention_days'));

  it('deletes what expired while the gateway was stopped, saying how many at info', async () => {
    const before = await startTempServers();
    dataDir = before.dataDir;
    dirs.push(dataDir);
    insertOld(before, 3, 45, 'resp_while_stopped_');
    insertOld(before, 2, 5, 'resp_recent_');
    await before.close();

    const lines = purgedLines(await startAndStop(dataDir));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, purged: 3 });
    expect(lines[0]!.msg).toBe('deleted 3 kept response(s) older than 30 days (responses.retention_days)');
    const database = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
    try {
      const ids = database.prepare('SELECT id FROM gateway_responses ORDER BY id').pluck().all();
      expect(ids).toEqual(['resp_recent_0', 'resp_recent_1']);
    } finally {
      database.close();
    }
  }, 60_000);

  it('says nothing when nothing expired', async () => {
    expect(purgedLines(await startAndStop(dataDir))).toEqual([]);
  }, 60_000);
});

describe('responses.retention_days: 0', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ responses: { retention_days: 0 } });
  });
  afterAll(async () => servers?.stop());

  it('keeps responses forever', async () => {
    insertOld(servers, 3, 3650);
    expect(await purge(servers)).toBe(0);
    expect(backlog(servers)).toBe(3);
  });

  it('is refused below 0', () => {
    expect(configSchema.safeParse({ responses: { retention_days: -1 } }).success).toBe(false);
  });
});
