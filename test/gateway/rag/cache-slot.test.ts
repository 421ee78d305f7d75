import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { routesTestApp } from '../support/routes-app.js';

/**
 * The response cache runs after RAG and keys on the body as routed, retrieved context included. Two
 * users of one team share a cache scope, yet one may read a collection the other may not: an answer
 * made with a chunk is never served to the caller who may not read it, while each caller still hits
 * their own entries.
 */
describe('RAG before the response cache', () => {
  const MASTER = 'gk-master-rag-cache-test-0123456789';
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dir: string;
  let url: string;

  const admin = async (method: 'POST' | 'GET', path: string, payload?: object) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${MASTER}` }, payload });

  let alice: string;
  let bob: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-cache-'));
    const { config } = loadConfig({
      env: { GATEHOUSE_DATA_DIR: dir, GATEHOUSE_LOG_LEVEL: 'silent' },
      overrides: {
        rag: { models: { 'demo/echo': ['eng', 'open'] } },
        cache: { enabled: true, sampled: true },
      },
    });
    database = openDatabase(join(dir, 'gatehouse.db'));
    app = await routesTestApp({ config, database, masterKey: MASTER });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    await admin('POST', '/internal/rag/collections', { name: 'eng', access: { users: ['alice'] } });
    await admin('POST', '/internal/rag/collections', { name: 'open' });
    await admin('POST', '/internal/rag/collections/eng/documents', {
      key: 'eng.txt',
      content: 'Deploy window is Tuesday. ENGCACHE4411',
    });
    await admin('POST', '/internal/rag/collections/open/documents', {
      key: 'open.txt',
      content: 'Deploy questions go to the help desk. OPENCACHE8820',
    });
    const issue = async (user: string) =>
      (await admin('POST', '/internal/api-keys', { user, team: 'shared', scopes: ['chat', 'rag:*'] })).json()
        .key as string;
    alice = await issue('alice');
    bob = await issue('bob');
  });
  afterAll(async () => {
    await app.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (key: string) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions
      .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'when is the deploy window' }] })
      .withResponse();

  it('a teammate who may not read a chunk never gets the answer made with it', async () => {
    const first = await ask(alice);
    expect(first.response.headers.get('x-cache-hit')).toBe('false');
    expect(first.response.headers.get('x-gatehouse-rag-chunks')).toContain('eng:');

    const other = await ask(bob);
    expect(other.response.headers.get('x-cache-hit')).toBe('false');
    expect(other.response.headers.get('x-gatehouse-rag-chunks')).not.toContain('eng:');
    expect(JSON.stringify(other.data)).not.toContain('ENGCACHE4411');

    // Each caller's own entry still serves them.
    expect((await ask(bob)).response.headers.get('x-cache-hit')).toBe('true');
    expect((await ask(alice)).response.headers.get('x-cache-hit')).toBe('true');

    // Nothing in the traffic record of Bob's requests carries the chunk he may not read.
    const traffic = (await admin('GET', '/internal/traffic?limit=50')).json() as { data: Array<{ key_id: string }> };
    const bobKeys = (await admin('GET', '/internal/api-keys?user=bob')).json().data.map((k: { id: string }) => k.id);
    const bobEvents = traffic.data.filter((event) => bobKeys.includes(event.key_id));
    expect(bobEvents.length).toBe(2);
    expect(JSON.stringify(bobEvents)).not.toContain('ENGCACHE4411');
  });
});
