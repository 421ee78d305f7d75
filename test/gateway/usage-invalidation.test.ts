import Database from 'better-sqlite3';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * An open Usage view refreshes on the `usage` invalidation of the admin event stream: sent when usage
 * rows are written, so also for the rows held in memory while another process locked the database
 * (written on release, with no traffic event to go by), and throttled, so a burst of requests costs a
 * notice or two rather than one per request.
 */

interface StreamEvent {
  readonly event: string;
  readonly data: string;
  readonly at: number;
}

/** Follows the admin event stream, collecting its events until `stop`. */
async function follow(url: string): Promise<{ readonly events: StreamEvent[]; readonly stop: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${url}/internal/traffic/stream`, {
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let text = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event = readField(block, 'event');
        if (event !== undefined) events.push({ event, data: readField(block, 'data') ?? '', at: Date.now() });
      }
    }
  })();
  return { events, stop: () => controller.abort() };
}

function readField(block: string, name: string): string | undefined {
  const line = block.split('\n').find((candidate) => candidate.startsWith(`${name}:`));
  return line?.slice(name.length + 1).trimStart();
}

const usageNotices = (events: readonly StreamEvent[]) =>
  events.filter((event) => event.event === 'invalidate' && JSON.parse(event.data).topic === 'usage');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the usage invalidation', () => {
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    servers = await startTempServers();
    servers.database.lock.configure({ waitMs: 1000 });
    client = await openAIClientWithNewKey(servers, { name: 'usage-notice' });
  });
  afterAll(async () => servers?.stop());

  const chat = () =>
    client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello' }] });

  it('is sent soon after usage rows are written, once per burst rather than per request', async () => {
    const stream = await follow(servers.gatewayUrl);
    await sleep(50);
    await Promise.all(Array.from({ length: 30 }, chat));
    const answered = Date.now();
    await expect.poll(() => usageNotices(stream.events).length, { timeout: 2000 }).toBeGreaterThan(0);
    expect(usageNotices(stream.events)[0]!.at - answered).toBeLessThan(1000);
    await sleep(1300);
    stream.stop();
    const notices = usageNotices(stream.events);
    expect(stream.events.filter((event) => event.event === 'traffic')).toHaveLength(30);
    // The burst's batches (up to one per 50 ms) are told at most once a second, however long the burst
    // took on a loaded machine: a notice per batch would come 50 ms apart.
    expect(notices.length).toBeLessThan(30);
    for (let index = 1; index < notices.length; index += 1)
      expect(notices[index]!.at - notices[index - 1]!.at).toBeGreaterThanOrEqual(900);
  });

  it('is sent when rows held while the database was locked are written on release', async () => {
    const other = new Database(join(servers.dataDir, 'gatehouse.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      // The first of these meets the lock (and waits it out once); the rows then wait in memory.
      for (let index = 0; index < 3; index += 1) await chat();
      await sleep(300);
      const stream = await follow(servers.gatewayUrl);
      await sleep(1200);
      expect(usageNotices(stream.events)).toHaveLength(0);
      other.exec('COMMIT');
      await expect.poll(() => usageNotices(stream.events).length, { timeout: 3000 }).toBe(1);
      stream.stop();
      // Nothing else told the view: no request ran meanwhile.
      expect(stream.events.filter((event) => event.event === 'traffic')).toHaveLength(0);
      const logs = await fetch(`${servers.gatewayUrl}/internal/usage/logs?limit=100`, {
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      });
      expect(((await logs.json()) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(33);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  }, 15_000);
});
