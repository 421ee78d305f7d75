import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Store-backed collections follow a namespace and branch: a write through the store's HTTP API
 * re-indexes the collection (the store's in-process revision event), chunks know the revision they
 * came from, deletions and rollbacks in the store remove chunks, and the answer cites what changed.
 */
describe('RAG collections that follow the store', () => {
  let h: GatewayHarness;
  let secret: string;

  const store = async (path: string, body: unknown): Promise<any> => {
    const response = await fetch(`${h.servers.storeUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  const scope = { namespace: 'kb/handbook', branch: 'main' };
  const apply = (documents: unknown[]) => store('/v1/apply', { scope, documents });

  /** Waits until the collection was indexed at `revision` (the sync runs after the store answered). */
  async function indexedAt(revision: number): Promise<any> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const collection = (await h.admin('GET', '/internal/rag/collections/handbook')).body;
      if (collection.source_revision === revision) return collection;
      if (Date.now() > deadline) throw new Error(`collection stayed at revision ${collection.source_revision}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const chunks = async (): Promise<any[]> =>
    (await h.admin('GET', '/internal/rag/collections/handbook/chunks')).body.data;
  const retrieve = async (question: string): Promise<string[]> => {
    const { response } = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: question }] },
        { headers: { 'x-gatehouse-rag': 'handbook' } },
      )
      .withResponse();
    return (response.headers.get('x-gatehouse-rag-chunks') ?? '').split(',').filter(Boolean);
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat', 'rag:handbook'] })).key;
    // Written before the collection exists: creating it indexes the current head.
    await apply([{ key: 'vacation.md', content: '# Vacation\n\nEmployees get 25 vacation days a year.' }]);
    const created = await h.admin('POST', '/internal/rag/collections', { name: 'handbook', source: scope });
    expect(created.status).toBe(201);
    expect(created.body.source).toEqual(scope);
  });
  afterAll(() => h.close());

  it('indexes the head at creation, with the revision on every chunk', async () => {
    await indexedAt(1);
    const rows = await chunks();
    expect(rows.map((row) => [row.document_key, row.revision, row.heading])).toEqual([['vacation.md', 1, 'Vacation']]);
  });

  it('a new revision re-indexes what changed and keeps unchanged documents with their revision', async () => {
    const written = await apply([
      { key: 'vacation.md', content: '# Vacation\n\nEmployees get 30 vacation days a year.' },
      { key: 'expenses.txt', content: 'Expense reports are due on the fifth of each month.' },
    ]);
    await indexedAt(written.revision);
    const rows = await chunks();
    expect(rows.map((row) => [row.document_key, row.revision])).toEqual([
      ['expenses.txt', written.revision],
      ['vacation.md', written.revision],
    ]);
    expect(rows.find((row) => row.document_key === 'vacation.md').text).toContain('30 vacation days');
    const third = await apply([{ key: 'parking.txt', content: 'Parking permits come from reception.' }]);
    await indexedAt(third.revision);
    const after = await chunks();
    // Unchanged content is not re-chunked: its chunks still name the revision they came from.
    expect(after.find((row) => row.document_key === 'expenses.txt').revision).toBe(written.revision);
    expect(after.find((row) => row.document_key === 'parking.txt').revision).toBe(third.revision);
  });

  it('a deletion in the store removes the chunks: nothing of the document is retrieved any more', async () => {
    const before = await retrieve('when are expense reports due');
    const expenseChunk = (await chunks()).find((row) => row.document_key === 'expenses.txt');
    expect(before[0]).toBe(`handbook:${expenseChunk.id}`);
    const deleted = await apply([{ key: 'expenses.txt', delete: true }]);
    await indexedAt(deleted.revision);
    expect((await chunks()).map((row) => row.document_key)).not.toContain('expenses.txt');
    const documents = (await h.admin('GET', '/internal/rag/collections/handbook/documents')).body.data;
    expect(documents.map((doc: any) => doc.key)).toEqual(['parking.txt', 'vacation.md']);
    expect(await retrieve('when are expense reports due')).not.toContain(`handbook:${expenseChunk.id}`);
  });

  it('a rollback in the store is followed like any revision (the document comes back)', async () => {
    const rolled = await store('/v1/rollback', { scope, revision_id: 2, message: 'undo' });
    await indexedAt(rolled.revision);
    const keys = (await chunks()).map((row) => row.document_key);
    expect(keys).toEqual(['expenses.txt', 'vacation.md']);
  });

  it('other branches and namespaces do not touch the collection', async () => {
    const current = (await h.admin('GET', '/internal/rag/collections/handbook')).body;
    await store('/v1/apply', {
      scope: { namespace: 'kb/handbook', branch: 'draft' },
      documents: [{ key: 'secret.txt', content: 'draft only' }],
    });
    await store('/v1/apply', { scope: { namespace: 'other' }, documents: [{ key: 'x.txt', content: 'elsewhere' }] });
    const sync = await h.admin('POST', '/internal/rag/collections/handbook/sync');
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ revision: current.source_revision, added: 0, updated: 0, removed: 0 });
    expect((await chunks()).map((row) => row.document_key)).not.toContain('secret.txt');
  });

  it('documents of a store-backed collection are written to the store, not ingested (409)', async () => {
    const refused = await h.admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'x.txt',
      content: 'x',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('follows store namespace kb/handbook');
  });
});
