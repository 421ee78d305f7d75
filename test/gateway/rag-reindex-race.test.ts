import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A document is embedded before it is stored, so its collection can be deleted and made again under
 * the same name, with other readers, or switched to follow the store, in between. The document belongs
 * to the collection it was sent to: it must not land in the new one, where other people read it.
 */
describe('RAG documents whose collection changes while they are being indexed', () => {
  let h: GatewayHarness;

  const embeddingCalls = (): number =>
    h.openai.requests.filter((request) => request.path.endsWith('/embeddings')).length;
  const documentKeys = async (collection: string): Promise<string[]> =>
    (await h.admin('GET', `/internal/rag/collections/${collection}/documents`)).body.data.map(
      (doc: { key: string }) => doc.key,
    );
  const apply = async (namespace: string, documents: unknown[]): Promise<void> => {
    const response = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { namespace, branch: 'main' }, documents }),
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
  });
  afterAll(() => h.close());

  it('keeps an ingested document out of a collection deleted and made again (with other readers) meanwhile', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'hr', access: { teams: ['people'] } });
    h.openai.reset();
    h.openai.setNext({ delayMs: 400 });
    const ingest = h.admin('POST', '/internal/rag/collections/hr/documents', {
      key: 'salaries.md',
      content: 'Salary bands: the head of finance earns 240000 a year.',
    });
    await h.openai.waitForRequests(1);
    expect((await h.admin('DELETE', '/internal/rag/collections/hr')).status).toBe(204);
    const remade = await h.admin('POST', '/internal/rag/collections', { name: 'hr', access: { teams: ['eng'] } });
    expect(remade.status).toBe(201);

    const answer = await ingest;
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      type: 'conflict_error',
      message:
        'RAG collection hr was deleted or changed its source while salaries.md was being indexed; the document was not stored',
    });
    expect(await documentKeys('hr')).toEqual([]);

    // A reader of the new collection retrieves nothing of the old one's document.
    const engineer = await h.issueKey({ scopes: ['chat', 'rag:*'], team: 'eng' });
    h.openai.reset();
    const chat = await h
      .openaiClient(engineer.key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What does the head of finance earn?' }] },
        { headers: { 'x-gatehouse-rag': 'hr' } },
      )
      .withResponse();
    expect(chat.response.headers.get('x-gatehouse-rag-chunks')).toBe('');
    expect(JSON.stringify(h.openai.requests.map((request) => request.body))).not.toContain('240000');
  });

  it('keeps an ingested document out of a collection switched to follow the store meanwhile', async () => {
    await apply('kb/policies', [{ key: 'travel.md', content: 'Travel is booked through the portal.' }]);
    await h.admin('POST', '/internal/rag/collections', { name: 'policies' });
    h.openai.reset();
    h.openai.setNext({ delayMs: 400 });
    const ingest = h.admin('POST', '/internal/rag/collections/policies/documents', {
      key: 'draft.md',
      content: 'A draft that is not in the store.',
    });
    await h.openai.waitForRequests(1);
    const patched = await h.admin('PATCH', '/internal/rag/collections/policies', {
      source: { namespace: 'kb/policies', branch: 'main' },
    });
    expect(patched.status).toBe(200);

    expect((await ingest).status).toBe(409);
    expect((await h.admin('POST', '/internal/rag/collections/policies/sync')).status).toBe(200);
    expect(await documentKeys('policies')).toEqual(['travel.md']);
  });

  it('keeps a store document being synced out of a collection deleted and made again meanwhile', async () => {
    await apply('kb/finance', [
      { key: 'bonus.md', content: 'Bonus pool for the finance team is 1.2 million.' },
      { key: 'audit.md', content: 'The audit is in March.' },
    ]);
    h.openai.reset();
    h.openai.setNext({ delayMs: 400 });
    await h.admin('POST', '/internal/rag/collections', {
      name: 'finance',
      access: { teams: ['finance'] },
      source: { namespace: 'kb/finance', branch: 'main' },
    });
    await h.openai.waitForRequests(1);
    expect((await h.admin('DELETE', '/internal/rag/collections/finance')).status).toBe(204);
    await h.admin('POST', '/internal/rag/collections', { name: 'finance', access: { teams: ['everyone'] } });

    // Wait for the old sync to finish what it was doing, then look.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(embeddingCalls()).toBe(1);
    expect(await documentKeys('finance')).toEqual([]);
  });
});
