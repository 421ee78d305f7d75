import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// POST /v1/apply, /v1/rollback, /v1/restore, /v1/checkpoints, /v1/branches and DELETE /v1/checkpoints
// through fastify.inject: answers and every error case.

const errorOf = (body: string) =>
  JSON.parse(body).error as { type: string; message: string; code: number; head_revision?: number };

describe('store write routes', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore({ limits: { documents_per_apply: 3, document_bytes: 32, body_bytes: 2048 } });
  });
  afterAll(async () => store.close());

  describe('POST /v1/apply', () => {
    it('applies documents and answers revision, noop and changes', async () => {
      const scope = { namespace: 'apply/basic', branch: 'main' };
      const first = await store.call('POST', '/v1/apply', {
        scope,
        documents: [
          { key: 'b', content: '1' },
          { key: 'a', content: '' },
        ],
        message: '',
      });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      expect(first.json()).toEqual({
        revision: 1,
        noop: false,
        changes: [
          { key: 'a', type: 'create', after: '' },
          { key: 'b', type: 'create', after: '1' },
        ],
      });
      const again = await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '' }] });
      expect(again.json()).toEqual({ revision: 1, noop: true, changes: [] });
      const del = await store.call('POST', '/v1/apply', {
        scope,
        documents: [{ key: 'b', delete: true }],
        mode: 'merge',
        expected_revision: 1,
      });
      expect(del.json()).toEqual({ revision: 2, noop: false, changes: [{ key: 'b', type: 'delete', before: '1' }] });
      const replace = await store.call('POST', '/v1/apply', {
        scope,
        documents: [{ key: 'c', content: 'x' }],
        mode: 'replace',
      });
      expect(replace.json().changes).toEqual([
        { key: 'a', type: 'delete', before: '' },
        { key: 'c', type: 'create', after: 'x' },
      ]);
    });

    it('defaults scope to namespace default, branch main', async () => {
      const response = await store.call('POST', '/v1/apply', { documents: [{ key: 'defaults', content: 'x' }] });
      expect(response.statusCode).toBe(200);
      const state = await store.call('GET', '/v1/state?namespace=&branch=');
      expect(state.json().objects.defaults).toBe('x');
      const explicit = await store.call('GET', '/v1/state?namespace=default&branch=main');
      expect(explicit.json()).toEqual(state.json());
    });

    it.each([
      ['a missing documents list', { scope: {} }, /^documents must be an array of documents$/],
      ['an empty documents list', { documents: [] }, /^documents must list at least one document$/],
      ['an empty key', { documents: [{ key: '', content: 'x' }] }, /^documents\[0\]\.key: /],
      [
        'a key over 1024 characters',
        { documents: [{ key: 'k'.repeat(1025), content: 'x' }] },
        /^documents\[0\]\.key: .*1024/,
      ],
      [
        'a document with neither content nor delete',
        { documents: [{ key: 'a' }] },
        /^documents\[0\]: give either content or "delete": true$/,
      ],
      [
        'a document with both content and delete',
        { documents: [{ key: 'a', content: 'x', delete: true }] },
        /^documents\[0\]: give either/,
      ],
      ['non-string content', { documents: [{ key: 'a', content: 5 }] }, /^documents\[0\]\.content: /],
      [
        'a lone surrogate in content',
        { documents: [{ key: 'a', content: '\ud800' }] },
        /^documents\[0\]\.content \(key 'a'\) holds a lone UTF-16 surrogate at character 0: not valid Unicode text$/,
      ],
      [
        'a lone surrogate in the message',
        { documents: [{ key: 'a', content: 'x' }], message: 'a\ud800b' },
        /^message holds a lone UTF-16 surrogate at character \d+: not valid Unicode text$/,
      ],
      [
        'a duplicate key',
        {
          documents: [
            { key: 'a', content: '1' },
            { key: 'a', content: '2' },
          ],
        },
        /^documents\[1\]\.key "a" repeats documents\[0\]\.key$/,
      ],
      [
        'a namespace that is not path-like',
        { scope: { namespace: '/abs' }, documents: [{ key: 'a', content: 'x' }] },
        /^scope\.namespace: .*path-like/,
      ],
      [
        'a namespace with an empty segment',
        { scope: { namespace: 'a//b' }, documents: [{ key: 'a', content: 'x' }] },
        /^scope\.namespace: /,
      ],
      [
        'a namespace with a ".." segment, which URLs would collapse into another namespace',
        { scope: { namespace: 'team/..' }, documents: [{ key: 'a', content: 'x' }] },
        /^scope\.namespace: .*none of them "\." or "\.\."$/,
      ],
      [
        'a namespace with a "." segment',
        { scope: { namespace: 'team/./app' }, documents: [{ key: 'a', content: 'x' }] },
        /^scope\.namespace: /,
      ],
      [
        'a branch with a space',
        { scope: { branch: 'my branch' }, documents: [{ key: 'a', content: 'x' }] },
        /^scope\.branch: /,
      ],
      ['an unknown mode', { mode: 'upsert', documents: [{ key: 'a', content: 'x' }] }, /^mode: /],
      ['an unknown field', { documents: [{ key: 'a', content: 'x' }], revison_id: 3 }, /revison_id/],
      [
        'a negative expected_revision',
        { documents: [{ key: 'a', content: 'x' }], expected_revision: -1 },
        /expected_revision must not be negative/,
      ],
    ])('answers 400 naming the field for %s', async (_name, body, message) => {
      const response = await store.call('POST', '/v1/apply', body);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toMatchObject({
        type: 'invalid_request_error',
        code: 400,
        message: expect.stringMatching(message),
      });
    });

    it('answers 400 for malformed JSON', async () => {
      const response = await store.call('POST', '/v1/apply', '{"documents": [');
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body).type).toBe('invalid_request_error');
    });

    it('answers 409 naming the head when expected_revision is not the head', async () => {
      const scope = { namespace: 'apply/cas' };
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
      const response = await store.call('POST', '/v1/apply', {
        scope,
        documents: [{ key: 'a', content: '2' }],
        expected_revision: 0,
      });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response.body)).toEqual({
        type: 'conflict_error',
        code: 409,
        message:
          'branch "main" of namespace "apply/cas" is at revision 1, not the expected_revision 0: another write came first; read the branch at revision 1 and retry with expected_revision 1',
        reason: 'head_moved',
        head_revision: 1,
      });
    });

    it('answers 413 over the document count, document size and body size limits', async () => {
      const many = await store.call('POST', '/v1/apply', {
        documents: ['a', 'b', 'c', 'd'].map((key) => ({ key, content: '' })),
      });
      expect(many.statusCode).toBe(413);
      expect(errorOf(many.body)).toMatchObject({
        type: 'payload_too_large',
        message: 'documents lists 4 documents; the limit is 3 per request',
      });
      const big = await store.call('POST', '/v1/apply', { documents: [{ key: 'a', content: 'x'.repeat(33) }] });
      expect(big.statusCode).toBe(413);
      expect(errorOf(big.body).message).toBe(
        'documents[0].content (key "a") is 33 bytes; the limit is 32 bytes per document (store.limits.document_bytes)',
      );
      const body = await store.call('POST', '/v1/apply', {
        documents: [{ key: 'a', content: 'x' }],
        message: 'm'.repeat(3000),
      });
      expect(body.statusCode).toBe(413);
      expect(errorOf(body.body).type).toBe('payload_too_large');
      expect(errorOf(body.body).message).toMatch(/^request body is \d+ bytes; the limit is \d+ bytes$/);
    });
  });

  describe('POST and DELETE /v1/checkpoints', () => {
    it('refuses a branch never written (a typo) and leaves an existing checkpoint where it was', async () => {
      const scope = { namespace: 'cp/typo', branch: 'main' };
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
      await store.call('POST', '/v1/checkpoints', { scope, name: 'release' });
      const typo = await store.call('POST', '/v1/checkpoints', {
        scope: { ...scope, branch: 'mian' },
        name: 'release',
      });
      expect(typo.statusCode).toBe(404);
      expect(errorOf(typo.body)).toEqual({
        type: 'not_found_error',
        code: 404,
        message:
          'branch "mian" does not exist in namespace "cp/typo", so it has no head to checkpoint; its branches are "main"',
      });
      const listed = await store.call('GET', '/v1/checkpoints?namespace=cp/typo');
      expect(
        listed.json().checkpoints.map((c: { name: string; revision_id: number }) => [c.name, c.revision_id]),
      ).toEqual([['release', 1]]);
      // Where nothing was written at all, the empty state is checkpointed at revision 0.
      const empty = await store.call('POST', '/v1/checkpoints', { scope: { namespace: 'cp/empty' }, name: 'start' });
      expect(empty.json()).toEqual({ name: 'start', revision_id: 0 });
    });

    it('creates at the head, moves on re-creation, deletes, and 404s an unknown name', async () => {
      const scope = { namespace: 'cp/basic' };
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
      const created = await store.call('POST', '/v1/checkpoints', { scope, name: 'release', description: 'first' });
      expect(created.statusCode).toBe(200);
      expect(created.json()).toEqual({ name: 'release', revision_id: 1 });
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '2' }] });
      expect((await store.call('POST', '/v1/checkpoints', { scope, name: 'release' })).json()).toEqual({
        name: 'release',
        revision_id: 2,
      });
      const deleted = await store.call('DELETE', '/v1/checkpoints', { namespace: 'cp/basic', name: 'release' });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({});
      const again = await store.call('DELETE', '/v1/checkpoints', { namespace: 'cp/basic', name: 'release' });
      expect(again.statusCode).toBe(404);
      expect(errorOf(again.body)).toEqual({
        type: 'not_found_error',
        code: 404,
        message: 'checkpoint "release" does not exist in namespace "cp/basic"',
      });
    });

    it('answers 400 for a missing or empty name', async () => {
      expect((await store.call('POST', '/v1/checkpoints', { name: '' })).statusCode).toBe(400);
      expect((await store.call('POST', '/v1/checkpoints', { description: 'x' })).statusCode).toBe(400);
      expect((await store.call('DELETE', '/v1/checkpoints', { namespace: 'x' })).statusCode).toBe(400);
    });

    it('answers 400 for a description with a lone surrogate, which UTF-8 cannot store', async () => {
      const response = await store.call('POST', '/v1/checkpoints', { name: 'odd', description: 'd\udc00' });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body).message).toMatch(
        /^description holds a lone UTF-16 surrogate at character \d+: not valid Unicode text$/,
      );
    });
  });

  describe('POST /v1/rollback and /v1/restore', () => {
    const scope = { namespace: 'history/rr', branch: 'main' };
    beforeAll(async () => {
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
      await store.call('POST', '/v1/checkpoints', { scope, name: 'one' });
      await store.call('POST', '/v1/apply', {
        scope,
        documents: [
          { key: 'a', content: '2' },
          { key: 'b', content: '2' },
        ],
      });
      await store.call('POST', '/v1/apply', {
        scope: { ...scope, branch: 'dev' },
        documents: [{ key: 'd', content: 'dev' }],
      });
    });

    it('rolls back to a revision with zero-valued selectors as a Go client sends them', async () => {
      const response = await store.call('POST', '/v1/rollback', {
        scope,
        revision_id: 1,
        checkpoint_name: '',
        message: '',
      });
      expect(response.json()).toEqual({
        revision: 4,
        noop: false,
        changes: [
          { key: 'a', type: 'update', before: '2', after: '1' },
          { key: 'b', type: 'delete', before: '2' },
        ],
      });
      // The checkpoint (revision 1) wins over revision_id, and the branch is already there.
      expect(
        (await store.call('POST', '/v1/rollback', { scope, checkpoint_name: 'one', revision_id: 2 })).json(),
      ).toEqual({ revision: 4, noop: true, changes: [] });
      expect((await store.call('POST', '/v1/rollback', { scope, revision_id: 2 })).json()).toMatchObject({
        revision: 5,
        noop: false,
      });
    });

    it('answers 404 for a revision outside the branch or an unknown checkpoint, 409 for a moved head', async () => {
      const other = await store.call('POST', '/v1/rollback', { scope, revision_id: 3 });
      expect(other.statusCode).toBe(404);
      expect(errorOf(other.body).message).toBe(
        'revision 3 is not in the history of branch "main" of namespace "history/rr"',
      );
      expect((await store.call('POST', '/v1/rollback', { scope, checkpoint_name: 'nope' })).statusCode).toBe(404);
      const moved = await store.call('POST', '/v1/rollback', { scope, revision_id: 1, expected_revision: 1 });
      expect(moved.statusCode).toBe(409);
      expect(errorOf(moved.body).head_revision).toBe(5);
      expect((await store.call('POST', '/v1/rollback', { scope, revision_id: -1 })).statusCode).toBe(400);
    });

    it('restores from a branch, a revision of the namespace or a checkpoint', async () => {
      const fromBranch = await store.call('POST', '/v1/restore', {
        scope,
        from_branch: 'dev',
        from_revision: 0,
        from_checkpoint: '',
        message: 'take dev',
      });
      expect(fromBranch.json()).toMatchObject({
        noop: false,
        changes: [
          { key: 'a', type: 'delete' },
          { key: 'b', type: 'delete' },
          { key: 'd', type: 'create', after: 'dev' },
        ],
      });
      const fromRevision = await store.call('POST', '/v1/restore', { scope, from_revision: 2 });
      expect(fromRevision.json().changes.map((c: { key: string }) => c.key)).toEqual(['a', 'b', 'd']);
      const fromCheckpoint = await store.call('POST', '/v1/restore', {
        scope,
        from_checkpoint: 'one',
        from_branch: 'dev',
      });
      expect((await store.call('GET', '/v1/state?namespace=history/rr')).json().objects).toEqual({ a: '1' });
      expect(fromCheckpoint.statusCode).toBe(200);
      const log = (await store.call('GET', '/v1/log?namespace=history/rr&limit=3')).json();
      expect(log.entries.map((e: { message: string }) => e.message)).toEqual([
        'restore from checkpoint "one" (main@1)',
        'restore from main@2',
        'take dev',
      ]);
    });

    it('answers 404 for an unknown source', async () => {
      expect(errorOf((await store.call('POST', '/v1/restore', { scope, from_branch: 'nope' })).body)).toMatchObject({
        code: 404,
        message: 'branch "nope" does not exist in namespace "history/rr"',
      });
      expect((await store.call('POST', '/v1/restore', { scope, from_revision: 999 })).statusCode).toBe(404);
      expect((await store.call('POST', '/v1/restore', { scope, from_checkpoint: 'nope' })).statusCode).toBe(404);
      expect((await store.call('POST', '/v1/restore', { scope, from_branch: 'bad branch' })).statusCode).toBe(400);
    });
  });

  describe('POST /v1/branches', () => {
    const scope = { namespace: 'branches/create' };
    beforeAll(async () => {
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
      await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '2' }] });
    });

    it('creates a branch from the head, a revision or a checkpoint', async () => {
      const head = await store.call('POST', '/v1/branches', {
        scope,
        name: 'feature/x',
        from_revision: 0,
        from_checkpoint: '',
      });
      expect(head.json()).toEqual({ name: 'feature/x', base_revision: 2, head_revision: 3 });
      const rev = await store.call('POST', '/v1/branches', { scope, name: 'old', from_revision: 1 });
      expect(rev.json()).toEqual({ name: 'old', base_revision: 1, head_revision: 4 });
      expect((await store.call('GET', '/v1/state?namespace=branches/create&branch=old')).json()).toEqual({
        revision: 4,
        objects: { a: '1' },
      });
      await store.call('POST', '/v1/checkpoints', { scope: { ...scope, branch: 'old' }, name: 'old-head' });
      const cp = await store.call('POST', '/v1/branches', { scope, name: 'from-cp', from_checkpoint: 'old-head' });
      expect(cp.json()).toEqual({ name: 'from-cp', base_revision: 4, head_revision: 5 });
    });

    it('answers 409 for an existing name, 404 for an unknown source, 400 for a bad name', async () => {
      const exists = await store.call('POST', '/v1/branches', { scope, name: 'main' });
      expect(exists.statusCode).toBe(409);
      expect(errorOf(exists.body)).toEqual({
        type: 'conflict_error',
        code: 409,
        message: 'branch "main" already exists in namespace "branches/create"',
        reason: 'exists',
      });
      expect((await store.call('POST', '/v1/branches', { scope, name: 'y', from_revision: 77 })).statusCode).toBe(404);
      expect((await store.call('POST', '/v1/branches', { scope, name: 'y', from_checkpoint: 'nope' })).statusCode).toBe(
        404,
      );
      expect((await store.call('POST', '/v1/branches', { scope, name: '' })).statusCode).toBe(400);
      expect((await store.call('POST', '/v1/branches', { scope, name: 'a b' })).statusCode).toBe(400);
    });

    it('answers 404 for a source branch never written (a typo), and creates nothing', async () => {
      const typo = await store.call('POST', '/v1/branches', { scope: { ...scope, branch: 'mian' }, name: 'feature' });
      expect(typo.statusCode).toBe(404);
      expect(errorOf(typo.body)).toEqual({
        type: 'not_found_error',
        code: 404,
        message:
          'branch "mian" does not exist in namespace "branches/create": branch from one that exists, ' +
          'or write to "feature" to start it empty',
      });
      const branches = await store.call('GET', '/v1/branches?namespace=branches/create');
      expect(branches.json().branches.map((b: { name: string }) => b.name)).not.toContain('feature');
    });
  });
});
