import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A collection following a store namespace or branch that does not exist was accepted without a word
 * and showed 0 documents, as did one whose branch was deleted: a misspelt namespace looked like an
 * empty one. The store makes a namespace or branch on its first write, so following one before that is
 * allowed, but the collection says why it is empty.
 */
describe('a collection whose store source does not exist', () => {
  let h: GatewayHarness;
  const store = async (method: string, path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${h.servers.storeUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const write = (namespace: string, branch: string) =>
    store('POST', '/v1/apply', {
      scope: { namespace, branch },
      documents: [{ key: 'failover.md', content: '# Failover\n\nPromote the replica.' }],
    });

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('says so for a namespace nothing was written to, and stops once it is written', async () => {
    const created = await h.admin('POST', '/internal/rag/collections', {
      name: 'runbooks',
      source: { namespace: 'ops/runbookz' },
    });
    expect(created.status).toBe(201);
    expect(created.body.source_warning).toBe(
      'store namespace ops/runbookz does not exist (nothing has been written to it, or its branches were deleted): ' +
        'the collection stays empty until documents are written there',
    );
    const listed = (await h.admin('GET', '/internal/rag/collections')).body.data;
    expect(listed.find((collection: { name: string }) => collection.name === 'runbooks').source_warning).toBe(
      created.body.source_warning,
    );
    await write('ops/runbookz', 'main');
    expect((await h.admin('GET', '/internal/rag/collections/runbooks')).body.source_warning).toBeNull();
  });

  it('names the branches the namespace has when the followed one does not exist', async () => {
    await write('ops/wiki', 'main');
    await write('ops/wiki', 'draft');
    const created = await h.admin('POST', '/internal/rag/collections', {
      name: 'wiki',
      source: { namespace: 'ops/wiki', branch: 'mian' },
    });
    expect(created.status).toBe(201);
    expect(created.body.source_warning).toBe(
      'branch mian does not exist in store namespace ops/wiki (it was deleted, or nothing has been written to it ' +
        'yet; the namespace has draft, main): the collection stays empty until documents are written there',
    );
    const fixed = await h.admin('PATCH', '/internal/rag/collections/wiki', {
      source: { namespace: 'ops/wiki', branch: 'draft' },
    });
    expect(fixed.body.source_warning).toBeNull();
  });

  it('says so once the followed branch is deleted', async () => {
    await h.admin('POST', '/internal/rag/collections/wiki/sync');
    expect((await h.admin('GET', '/internal/rag/collections/wiki')).body).toMatchObject({
      documents: 1,
      source_warning: null,
    });
    await store('DELETE', '/v1/branches', { namespace: 'ops/wiki', name: 'draft' });
    await expect.poll(async () => (await h.admin('GET', '/internal/rag/collections/wiki')).body.documents).toBe(0);
    expect((await h.admin('GET', '/internal/rag/collections/wiki')).body.source_warning).toBe(
      'branch draft does not exist in store namespace ops/wiki (it was deleted, or nothing has been written to it ' +
        'yet; the namespace has main): the collection stays empty until documents are written there',
    );
  });

  it('has no warning without a source', async () => {
    const created = await h.admin('POST', '/internal/rag/collections', { name: 'notes' });
    expect(created.body.source_warning).toBeNull();
  });
});
