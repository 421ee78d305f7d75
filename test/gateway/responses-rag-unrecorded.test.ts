import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

const MIGRATION = '0019_responses_rag_unrecorded';

/**
 * Takes a database this version made back to before the migration `tag`, as a version before it had
 * left it: `tag` and the later migrations are forgotten, and what the later ones added is dropped, so
 * the next start applies them all. Each later migration may only add columns; another statement
 * fails here, to have its own way back written.
 */
function migratedBefore(databaseFile: string, tag: string): void {
  const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  const db = new Database(databaseFile);
  try {
    for (const later of journal.entries.slice(at + 1).reverse()) {
      // Undone last first: an index goes before the table it is on.
      const statements = readFileSync(join('drizzle', `${later.tag}.sql`), 'utf8').split('--> statement-breakpoint');
      for (const statement of statements.reverse()) {
        const indexed = /^\s*CREATE INDEX `(\w+)`[^;]*;\s*$/.exec(statement);
        if (indexed) {
          db.exec(`DROP INDEX \`${indexed[1]}\``);
          continue;
        }
        const created = /^\s*CREATE TABLE `(\w+)`[^;]*;\s*$/.exec(statement);
        if (created) {
          db.exec(`DROP TABLE \`${created[1]}\``);
          continue;
        }
        const added = /^\s*ALTER TABLE `(\w+)` ADD `(\w+)`[^;]*;\s*$/.exec(statement);
        if (!added) throw new Error(`${later.tag}: no way back from ${statement.trim()}`);
        db.exec(`ALTER TABLE \`${added[1]}\` DROP COLUMN \`${added[2]}\``);
      }
    }
    db.prepare('DELETE FROM __drizzle_migrations WHERE created_at >= ?').run(journal.entries[at]!.when);
  } finally {
    db.close();
  }
}

/**
 * Kept responses from before their RAG collections were recorded read as made with none, so every
 * teammate could read them, a RAG answer quoting a collection the teammate may not read included.
 * Once upgraded, those of keys that may read collections are their key's alone; those of keys that
 * could not retrieve anything stay shared with the team.
 */
describe('kept responses from before RAG collections were recorded', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-unrecorded-'));
  let servers: TempServers | undefined;
  afterAll(async () => {
    await servers?.stop();
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
    // Kept responses are recorded as a version before the migration recorded them (with '[]' for no
    // collection), then the database is taken back to before it.
    const older = await startTempServers({}, env);
    const retriever = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses', 'rag:*'] });
    const plain = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses'] });
    const teammate = await issue(older.gatewayUrl, { team: 'research', scopes: ['responses'] });
    const input = { model: 'demo/echo', input: 'kept before the upgrade', store: true } as const;
    const mayQuote = await client(older.gatewayUrl, retriever).responses.create(input);
    const cannotQuote = await client(older.gatewayUrl, plain).responses.create(input);
    expect(await status(client(older.gatewayUrl, teammate).responses.retrieve(mayQuote.id))).toBe(200);
    await older.close();
    migratedBefore(join(dataDir, 'gatehouse.db'), MIGRATION);

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
