import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from '../app-helpers.js';

// A token with `write` but not `read` (a CI job pushing configs) changes documents without seeing them.

const WRITER = 'st-write-only-0123456789abcdef';
const scope = { namespace: 'team/secrets', branch: 'main' };

describe('a write-only store token', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({
      tokens: [
        { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
        { name: 'ci', token: WRITER, verbs: ['write'], namespaces: ['team/*'] },
      ],
    });
    await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'db-password', content: 'hunter2' }] });
    await store.call('POST', '/v1/apply', {
      scope: { ...scope, branch: 'other' },
      documents: [{ key: 'api-key', content: 'sk-other-branch' }],
    });
  });
  afterAll(async () => store.close());

  it('cannot read the state', async () => {
    expect((await store.call('GET', '/v1/state?namespace=team/secrets', undefined, WRITER)).statusCode).toBe(403);
  });

  it('learns which keys its apply, rollback and restore changed, never their contents', async () => {
    const applied = await store.call(
      'POST',
      '/v1/apply',
      { scope, documents: [{ key: 'db-password', content: 'rotated' }], expected_revision: 1 },
      WRITER,
    );
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toEqual({
      revision: 3,
      noop: false,
      changes: [{ key: 'db-password', type: 'update' }],
      contents_omitted: true,
    });

    const rolledBack = await store.call('POST', '/v1/rollback', { scope, revision_id: 1 }, WRITER);
    expect(rolledBack.statusCode).toBe(200);
    expect(rolledBack.json().changes).toEqual([{ key: 'db-password', type: 'update' }]);
    expect(rolledBack.json().contents_omitted).toBe(true);

    const restored = await store.call('POST', '/v1/restore', { scope, from_branch: 'other' }, WRITER);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().changes).toEqual([
      { key: 'api-key', type: 'create' },
      { key: 'db-password', type: 'delete' },
    ]);
    expect(restored.json().contents_omitted).toBe(true);
    expect(JSON.stringify([applied.json(), rolledBack.json(), restored.json()])).not.toMatch(
      /hunter2|rotated|sk-other/,
    );
  });

  it('leaves the contents in the answers of a token that may read', async () => {
    const applied = await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'note', content: 'visible' }] });
    expect(applied.json().changes).toEqual([{ key: 'note', type: 'create', after: 'visible' }]);
    expect(applied.json()).not.toHaveProperty('contents_omitted');
  });
});
