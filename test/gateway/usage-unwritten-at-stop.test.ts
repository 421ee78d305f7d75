import Database from 'better-sqlite3';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { issueKey, spawnHeadless, waitForLogLine, type HeadlessProcess } from '../support/headless-process.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';

// A graceful stop while another process (a sqlite3 shell, DB Browser, a backup tool) holds the
// database's write lock: the usage rows of answered requests wait for it until the stop's deadline,
// and what the database still has not taken then is kept in a file the next start writes.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ANSWERED = 6;
const unwrittenFiles = (dir: string): string[] =>
  readdirSync(dir).filter((name) => name.startsWith('usage-unwritten-'));

function dataFolder(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-usage-unwritten-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'gatehouse.yaml');
  writeFileSync(config, 'server:\n  shutdown_timeout_ms: 4000\n');
  return {
    dir,
    // info: the next start's line about the rows it wrote.
    env: {
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: TEST_MASTER_KEY,
      GATEHOUSE_LOG_LEVEL: 'info',
    },
  };
}

async function serve(env: NodeJS.ProcessEnv): Promise<HeadlessProcess> {
  const server = await spawnHeadless(env);
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server;
}

/** Answers `ANSWERED` chats while `other` holds the write lock; returns the key's secret. */
async function answerWhileLocked(server: HeadlessProcess, other: Database.Database): Promise<string> {
  const { key } = await issueKey(server.gatewayUrl, TEST_MASTER_KEY, { name: 'while-locked' });
  const client = new OpenAI({ baseURL: `${server.gatewayUrl}/v1`, apiKey: key });
  other.exec('BEGIN IMMEDIATE');
  for (let index = 0; index < ANSWERED; index += 1) {
    const answer = await client.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: `locked ${index}` }],
    });
    expect(answer.choices[0]!.message.content).toBeTypeOf('string');
  }
  return key;
}

/** Chat rows in the usage table, read once no server runs. */
function chatRows(dir: string): Array<{ request_id: string; key_id: string | null }> {
  const db = new Database(join(dir, 'gatehouse.db'), { readonly: true });
  try {
    return db
      .prepare("SELECT request_id, key_id FROM gateway_usage WHERE endpoint LIKE '%chat%' ORDER BY id")
      .all() as Array<{ request_id: string; key_id: string | null }>;
  } finally {
    db.close();
  }
}

describe('usage rows at a graceful stop while another process holds the write lock', () => {
  it('are written when the lock is given back before the stop deadline', async () => {
    const { dir, env } = dataFolder();
    const server = await serve(env);
    const other = new Database(join(dir, 'gatehouse.db'));
    cleanups.push(() => other.close());
    await answerWhileLocked(server, other);

    server.child.kill('SIGTERM');
    await waitForText(server, 'finishing requests in flight');
    other.exec('ROLLBACK');
    expect(await server.exited()).toBe(0);

    expect(chatRows(dir)).toHaveLength(ANSWERED);
    expect(unwrittenFiles(dir)).toEqual([]);
  }, 60_000);

  it('are kept in a private file past the deadline, which the next start writes once (a bad file set aside)', async () => {
    const { dir, env } = dataFolder();
    const server = await serve(env);
    const other = new Database(join(dir, 'gatehouse.db'));
    cleanups.push(() => other.close());
    const secret = await answerWhileLocked(server, other);

    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    other.exec('ROLLBACK');
    other.close();
    expect(chatRows(dir)).toHaveLength(0);

    const [kept] = unwrittenFiles(dir);
    expect(kept).toMatch(/^usage-unwritten-.+\.jsonl$/);
    expect(server.output()).toContain(`kept in ${join(dir, kept!)}, which the next start writes to the usage log`);
    const file = join(dir, kept!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const rows = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { requestId: string; keyId: string; endpoint: string });
    expect(rows.filter((row) => row.endpoint.includes('chat'))).toHaveLength(ANSWERED);
    // Keys by id, never the secret a client sends.
    expect(text).not.toContain(secret);
    expect(text).not.toContain(TEST_MASTER_KEY);

    // The same rows twice (as after an import whose file could not be deleted), and a file that is not one.
    copyFileSync(file, join(dir, kept!.replace('.jsonl', '-1.jsonl')));
    const bad = join(dir, 'usage-unwritten-2026-01-01T00-00-00-000Z.jsonl');
    writeFileSync(bad, '{"requestId": "cut off in the midd');

    const next = await serve(env);
    await waitForLogLine(next, (entry) => String(entry.msg).includes(`${ANSWERED} usage rows an earlier stop`));
    await waitForLogLine(next, (entry) => String(entry.msg).includes('0 usage rows an earlier stop'));
    const setAside = await waitForLogLine(next, (entry) => String(entry.msg).includes('cannot be read'));
    expect(setAside.level).toBe(40);
    expect(String(setAside.msg)).toContain(`renamed to ${bad}.bad`);
    next.child.kill('SIGTERM');
    expect(await next.exited()).toBe(0);

    const written = chatRows(dir);
    expect(written.map((row) => row.request_id).sort()).toEqual(
      rows
        .filter((row) => row.endpoint.includes('chat'))
        .map((row) => row.requestId)
        .sort(),
    );
    expect(unwrittenFiles(dir)).toEqual([`${bad.slice(dir.length + 1)}.bad`]);
    expect(existsSync(file)).toBe(false);
  }, 90_000);
});

async function waitForText(server: HeadlessProcess, text: string): Promise<void> {
  for (let tries = 0; tries < 200 && !server.output().includes(text); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(server.output()).toContain(text);
}
