import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * A collection's access lists name callers by key id, user id and team id. An entry that cannot be one
 * (a key's name where its id belongs, a team written with a space) used to be stored as given, match
 * no caller, and so silently close the collection to the readers it was written for. Such entries are
 * refused, naming the entry, and nothing is changed.
 */
describe('RAG access lists name real ids', () => {
  let servers: TempServers;
  let keyId: string;
  const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_MASTER_KEY}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    servers = await startTempServers();
    keyId = (await admin('POST', '/internal/api-keys', { name: 'support-bot', scopes: ['chat', 'rag:*'] })).body.id;
    expect((await admin('POST', '/internal/rag/collections', { name: 'faq' })).status).toBe(201);
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it('refuses a key entry that names no key (a key name typed for its id)', async () => {
    const refused = await admin('POST', '/internal/rag/collections', {
      name: 'handbook',
      access: { keys: ['support-bot'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      "access.keys[0]: no API key with id 'support-bot' (list keys by id, key_...; see GET /internal/api-keys)",
    );
    expect((await admin('GET', '/internal/rag/collections/handbook')).status).toBe(404);

    const patched = await admin('PATCH', '/internal/rag/collections/faq', { access: { keys: [keyId, 'key_nope'] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toMatch(/^access\.keys\[1\]: no API key with id 'key_nope'/);
    expect((await admin('GET', '/internal/rag/collections/faq')).body.access).toEqual({
      keys: [],
      users: [],
      teams: [],
    });
  });

  it('refuses user and team entries that cannot be ids, naming the entry', async () => {
    const team = await admin('PATCH', '/internal/rag/collections/faq', {
      access: { teams: ['people', 'no team here'] },
    });
    expect(team.status).toBe(400);
    expect(team.body.error.message).toContain('access.teams[1]');
    expect(team.body.error.message).toContain('letters and digits (of any script) and . _ @ + - only');
    const user = await admin('PATCH', '/internal/rag/collections/faq', { access: { users: ['ada lovelace'] } });
    expect(user.status).toBe(400);
    expect(user.body.error.message).toContain('access.users[0]');
  });

  it('still shows a collection whose lists were stored before the ids were checked', async () => {
    const legacy = { keys: ['support-bot'], users: [], teams: ['no team here'] };
    expect((await admin('POST', '/internal/rag/collections', { name: 'legacy' })).status).toBe(201);
    servers.database.sqlite
      .prepare('UPDATE rag_collections SET access = ? WHERE name = ?')
      .run(JSON.stringify(legacy), 'legacy');
    expect((await admin('GET', '/internal/rag/collections/legacy')).body.access).toEqual(legacy);
    expect((await admin('GET', '/internal/rag/collections')).status).toBe(200);
  });

  it('accepts real key ids, and users and teams that have no record yet', async () => {
    const access = { keys: [keyId], users: ['ada@example.com'], teams: ['people'] };
    const patched = await admin('PATCH', '/internal/rag/collections/faq', { access });
    expect(patched.status).toBe(200);
    expect(patched.body.access).toEqual(access);
  });
});
