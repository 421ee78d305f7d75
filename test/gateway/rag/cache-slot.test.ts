import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import type { ProviderAnswer } from '../../../src/server/gateway/providers/answer.js';
import type { PolicyStage } from '../../../src/server/gateway/pipeline/stages/policy-stages.js';
import { routesTestApp } from '../support/routes-app.js';

/**
 * The cache slot runs after RAG, on the body with the retrieved context in it: a cache keyed on that
 * body (as a response cache is) holds per entry only chunks its caller could read, and a caller who
 * may not read a chunk can never be answered from an entry made with it. Proven with a stand-in cache
 * in the `cacheLookup` slot (the response cache itself is another branch's work).
 */
describe('RAG before the cache slot', () => {
  const MASTER = 'gk-master-rag-cache-test-0123456789';
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dir: string;
  let url: string;
  const entries = new Map<string, ProviderAnswer>();
  const lookups: Array<{ key: string; hit: boolean }> = [];

  // Keyed on the body as routed; stores the answer the first time a key is seen (here: a marker answer).
  const cache: PolicyStage = (ctx) => {
    const key = JSON.stringify(ctx.body);
    const found = entries.get(key);
    lookups.push({ key, hit: found !== undefined });
    if (found) return found;
    entries.set(key, {
      kind: 'json',
      usage: { promptTokens: 0, completionTokens: 0 },
      body: {
        id: `cached-${entries.size}`,
        object: 'chat.completion',
        created: 0,
        model: ctx.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'from cache' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      },
    });
    return undefined;
  };

  const admin = async (method: 'POST' | 'GET', path: string, payload?: object) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${MASTER}` }, payload });

  let engineer: string;
  let sales: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-cache-'));
    const { config } = loadConfig({
      env: { GATEHOUSE_DATA_DIR: dir, GATEHOUSE_LOG_LEVEL: 'silent' },
      overrides: { rag: { models: { 'demo/echo': ['eng', 'open'] } } },
    });
    database = openDatabase(join(dir, 'gatehouse.db'));
    app = await routesTestApp({ config, database, masterKey: MASTER, policy: { cacheLookup: cache } });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    await admin('POST', '/internal/rag/collections', { name: 'eng', access: { teams: ['engineering'] } });
    await admin('POST', '/internal/rag/collections', { name: 'open' });
    await admin('POST', '/internal/rag/collections/eng/documents', {
      key: 'eng.txt',
      content: 'Deploy window is Tuesday. ENGCACHE4411',
    });
    await admin('POST', '/internal/rag/collections/open/documents', {
      key: 'open.txt',
      content: 'Deploy questions go to the help desk. OPENCACHE8820',
    });
    const issue = async (team: string) =>
      (await admin('POST', '/internal/api-keys', { team, scopes: ['chat', 'rag:*'] })).json().key as string;
    engineer = await issue('engineering');
    sales = await issue('sales');
  });
  afterAll(async () => {
    await app.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (key: string) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'when is the deploy window' }],
    });

  it('each entry holds only its caller’s chunks; the other team never hits it', async () => {
    await ask(engineer);
    await ask(sales);
    expect(lookups.map((lookup) => lookup.hit)).toEqual([false, false]);
    const [engineerKey, salesKey] = lookups.map((lookup) => lookup.key) as [string, string];
    expect(engineerKey).toContain('ENGCACHE4411');
    expect(salesKey).not.toContain('ENGCACHE4411');
    expect(salesKey).toContain('OPENCACHE8820');
    // The same caller again is a hit: the cache still works, per visible context.
    expect((await ask(sales)).choices[0]!.message.content).toBe('from cache');
    expect(lookups[2]).toEqual({ key: salesKey, hit: true });
    expect([...entries.keys()].filter((key) => key.includes('ENGCACHE4411'))).toEqual([engineerKey]);
  });
});
