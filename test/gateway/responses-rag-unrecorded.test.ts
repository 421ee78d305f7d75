import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

const MIGRATION = '0019_responses_rag_unrecorded';

/** The migrations as a version before MIGRATION shipped them. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrations-'));
  cpSync('drizzle', dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((entry) => entry.tag === tag),
  );
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/**
 * Kept responses from before their RAG collections were recorded read as made with none, so every
 * teammate could read them, a RAG answer quoting a collection the teammate may not read included.
 * Once upgraded, those of keys that may read collections are their key's alone; those of keys that
 * could not retrieve anything stay shared with the team.
 */
describe('kept responses from before RAG collections were recorded', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-unrecorded-'));
  const olderMigrations = migrationsBefore(MIGRATION);
  let servers: TempServers | undefined;
  afterAll(async () => {
    await servers?.stop();
    rmSync(olderMigrations, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const issue = async (url: string, body: Record<string, unknown>): Promise<string> => {
    const response = await fetch(`${url}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { key: string }).key;
  };
  const client = (url: string, key: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const status = (promise: Promise<unknown>) =>
    promise.then(
      () => 200,
      (error: InstanceType<typeof OpenAI.APIError>) => error.status,
    );

  it("are their key's alone when it may read collections, and stay the team's otherwise", async () => {
    const env = { GATEHOUSE_DATA_DIR: dataDir };
    const older = await startTempServers({}, env, { migrationsDir: olderMigrations });
    const retriever = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses', 'rag:*'] });
    const plain = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses'] });
    const teammate = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses'] });
    const input = { model: 'demo/echo', input: 'kept before the upgrade', store: true } as const;
    const mayQuote = await client(older.gatewayUrl, retriever).responses.create(input);
    const cannotQuote = await client(older.gatewayUrl, plain).responses.create(input);
    expect(await status(client(older.gatewayUrl, teammate).responses.retrieve(mayQuote.id))).toBe(200);
    await older.close();

    servers = await startTempServers({}, env);
    const url = servers.gatewayUrl;
    expect(await status(client(url, teammate).responses.retrieve(mayQuote.id))).toBe(404);
    expect(await status(client(url, teammate).responses.inputItems.list(mayQuote.id))).toBe(404);
    expect((await client(url, retriever).responses.retrieve(mayQuote.id)).output_text).toBe('kept before the upgrade');
    expect(await status(client(url, teammate).responses.retrieve(cannotQuote.id))).toBe(200);
    // A response kept from now on is recorded as it is made: without RAG, the team's again.
    const fresh = await client(url, retriever).responses.create(input);
    expect(await status(client(url, teammate).responses.retrieve(fresh.id))).toBe(200);
  });
});
