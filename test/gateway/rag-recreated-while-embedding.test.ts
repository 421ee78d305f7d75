import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL, putDocument } from './ragperf-support.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * While a request's query waits on its vector, the collection it may read can be deleted and made
 * again under its name with other readers (another collection, docs/rag.md), or lose the caller as a
 * reader. Vectors are read by name after that wait: the new collection's chunks must not reach the
 * caller, who may not read it.
 */
describe('a collection replaced while a query is being embedded', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: EMBEDDING_MODEL } });
  });
  afterAll(() => h?.close());

  it("never gives the caller the new collection's chunks", async () => {
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'hr' })).status).toBe(201);
    await putDocument(h, 'hr', 'public.md', 'The office opens at nine.');
    const alice = await h.issueKey({ scopes: ['chat', 'rag:*'] });
    const bob = await h.issueKey({ scopes: ['chat', 'rag:*'] });

    // The query's embedding is slow: the collection is replaced while it waits.
    h.openai.reset();
    h.openai.setNext({ delayMs: 1500 });
    const asked = h
      .openaiClient(alice.key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What does the CEO earn?' }] },
        { headers: { 'x-gatehouse-rag': 'hr' } },
      )
      .withResponse();
    await h.openai.waitForRequests(1);
    expect((await h.admin('DELETE', '/internal/rag/collections/hr')).status).toBe(204);
    const remade = await h.admin('POST', '/internal/rag/collections', { name: 'hr', access: { keys: [bob.id] } });
    expect(remade.status).toBe(201);
    await putDocument(h, 'hr', 'salaries.md', 'CONFIDENTIAL: the CEO earns 999999.');

    const { response } = await asked;
    expect(response.headers.get('x-gatehouse-rag-chunks') ?? '').toBe('');
    const upstreamChat = h.openai.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(JSON.stringify(upstreamChat.map((request) => request.body))).not.toContain('CONFIDENTIAL');
  });
});
