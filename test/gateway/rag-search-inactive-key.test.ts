import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The admin search answers what a key would retrieve. A revoked or expired key is refused before
 * retrieval, so the honest answer for it is nothing: an admin checking whether a revoked key can still
 * read a collection must not be told it can.
 */
describe('RAG admin search for a key that can no longer be used', () => {
  let h: GatewayHarness;
  const query = { query: 'How many vacation days carry over?', collections: ['handbook'] };

  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', { name: 'handbook', access: { teams: ['people'] } });
    await h.admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'vacation.md',
      content: '# Vacation\n\nUp to five unused vacation days carry over into the next year.',
    });
  });
  afterAll(() => h.close());

  it('shows hits for an active reader, and none for the same reader once revoked', async () => {
    const reader = await h.issueKey({ scopes: ['chat', 'rag:*'], team: 'people' });
    const active = await h.admin('POST', '/internal/rag/search', { ...query, key_id: reader.id });
    expect(active.status).toBe(200);
    expect(active.body.hits.length).toBeGreaterThan(0);

    expect((await h.admin('DELETE', `/internal/api-keys/${reader.id}`)).status).toBe(200);
    const revoked = await h.admin('POST', '/internal/rag/search', { ...query, key_id: reader.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ collections: [], denied: ['handbook'], hits: [] });
    // And indeed the key itself retrieves nothing.
    const chat = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${reader.key}`,
        'content-type': 'application/json',
        'x-gatehouse-rag': 'handbook',
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: query.query }] }),
    });
    expect(chat.status).toBe(401);
  });

  it('shows none for an expired key', async () => {
    const reader = await h.issueKey({ scopes: ['chat', 'rag:*'], team: 'people', expires_in_seconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await h.admin('POST', '/internal/rag/search', { ...query, key_id: reader.id });
    expect(expired.body).toEqual({ collections: [], denied: ['handbook'], hits: [] });
  });

  it('names the field when key_id is not a key at all', async () => {
    const unknown = await h.admin('POST', '/internal/rag/search', { ...query, key_id: 'key_nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("key_id 'key_nobody' is not an API key of this gateway");
  });
});
