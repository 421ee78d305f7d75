import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A team member's key lists the collections it may read, with the same rule a request's retrieval
 * uses (docs/rag.md, "Who may read a collection"): what each is, never its documents or its readers.
 */
describe('GET /v1/rag/collections', () => {
  let h: GatewayHarness;
  const list = (key: string) =>
    fetch(`${h.url}/v1/rag/collections`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as any,
    }));

  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', {
      name: 'hr',
      description: 'People handbook',
      access: { teams: ['people'] },
    });
    await h.admin('POST', '/internal/rag/collections', { name: 'eng', access: { teams: ['eng'], users: ['alice'] } });
    await h.admin('POST', '/internal/rag/collections', { name: 'public', description: 'For everyone' });
    await h.admin('POST', '/internal/rag/collections/hr/documents', { key: 'salaries.md', content: 'SECRET salaries' });
    await h.admin('POST', '/internal/rag/collections/public/documents', { key: 'a.md', content: 'one' });
    await h.admin('POST', '/internal/rag/collections/public/documents', { key: 'b.md', content: 'two' });
  });
  afterAll(() => h.close());

  it('answers the collections the key may read, in the list shape, without documents or readers', async () => {
    const alice = await h.issueKey({ scopes: ['chat', 'rag:*'], team: 'people', user: 'alice' });
    const answer = await list(alice.key);
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('list');
    expect(answer.body.data).toEqual([
      {
        object: 'rag.collection',
        name: 'eng',
        description: '',
        documents: 0,
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        object: 'rag.collection',
        name: 'hr',
        description: 'People handbook',
        documents: 1,
        updated_at: expect.any(String),
      },
      {
        object: 'rag.collection',
        name: 'public',
        description: 'For everyone',
        documents: 2,
        updated_at: expect.any(String),
      },
    ]);
    const text = JSON.stringify(answer.body);
    for (const hidden of ['SECRET', 'salaries', 'people', 'alice', 'access']) expect(text).not.toContain(hidden);
  });

  it('applies both the scope and the access lists', async () => {
    const dan = await h.issueKey({ scopes: ['chat', 'rag:*'], team: 'eng' });
    expect((await list(dan.key)).body.data.map((c: { name: string }) => c.name)).toEqual(['eng', 'public']);
    const bob = await h.issueKey({ scopes: ['chat', 'rag:public'], team: 'people' });
    expect((await list(bob.key)).body.data.map((c: { name: string }) => c.name)).toEqual(['public']);
    // A listed team without any rag scope reads nothing, so sees nothing.
    const noScope = await h.issueKey({ scopes: ['chat'], team: 'people' });
    expect(await list(noScope.key)).toEqual({ status: 200, body: { object: 'list', data: [] } });
  });

  it('is read with the official OpenAI client', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'rag:public'] });
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key.key, maxRetries: 0 });
    const answer = (await client.get('/rag/collections')) as { object: string; data: Array<{ name: string }> };
    expect(answer.object).toBe('list');
    expect(answer.data.map((c) => c.name)).toEqual(['public']);
  });

  it('refuses a missing, unknown or revoked key and the master key with 401', async () => {
    const missing = await fetch(`${h.url}/v1/rag/collections`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as any).error).toMatchObject({ type: 'authentication_error', code: 401 });
    expect((await list('gk-not-a-key')).body.error.message).toMatch(/^invalid API key: /);
    const master = await list(TEST_MASTER_KEY);
    expect(master.status).toBe(401);
    expect(master.body.error.message).toContain('the master key is for /internal/* only');
    const revoked = await h.issueKey({ scopes: ['rag:*'] });
    await h.admin('DELETE', `/internal/api-keys/${revoked.id}`);
    expect(await list(revoked.key)).toMatchObject({
      status: 401,
      body: { error: { message: 'API key has been revoked' } },
    });
  });
});
