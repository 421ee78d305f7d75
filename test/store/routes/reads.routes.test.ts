import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// GET /v1/state, /v1/log, /v1/revisions/:id, /v1/branches, /v1/checkpoints and POST /v1/diff through
// fastify.inject: answers and every error case.

const errorOf = (body: string) => JSON.parse(body).error as { type: string; message: string; code: number };

describe('store read routes', () => {
  let store: TestStore;
  const scope = { namespace: 'reads/app', branch: 'main' };
  beforeAll(async () => {
    store = await buildTestStore();
    await store.call('POST', '/v1/apply', {
      scope,
      documents: [
        { key: 'b', content: '1' },
        { key: '__proto__', content: 'p' },
      ],
      message: 'first',
    });
    await store.call('POST', '/v1/checkpoints', { scope, name: 'v1', description: 'the first' });
    await store.call('POST', '/v1/apply', {
      scope,
      documents: [
        { key: 'b', content: '2' },
        { key: 'é', content: 'e' },
        { key: 'Z', content: 'z' },
      ],
    });
    await store.call('POST', '/v1/branches', { scope, name: 'dev' });
  });
  afterAll(async () => store.close());

  describe('GET /v1/state', () => {
    it('answers the head, a revision or a checkpoint, keys in byte order', async () => {
      const head = await store.call('GET', '/v1/state?namespace=reads/app&branch=main');
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(head.body).toBe('{"revision":2,"objects":{"Z":"z","__proto__":"p","b":"2","é":"e"}}');
      expect((await store.call('GET', '/v1/state?namespace=reads/app&branch=main&revision=1')).json()).toEqual({
        revision: 1,
        objects: JSON.parse('{"__proto__":"p","b":"1"}'),
      });
      expect((await store.call('GET', '/v1/state?namespace=reads/app&branch=dev&checkpoint=v1')).json().revision).toBe(
        1,
      );
      expect((await store.call('GET', '/v1/state?namespace=reads/app&branch=main&revision=0')).json().revision).toBe(2);
      expect((await store.call('GET', '/v1/state?namespace=nothing/here&branch=main')).json()).toEqual({
        revision: 0,
        objects: {},
      });
    });

    it('answers 404 for a revision outside the branch or an unknown checkpoint, 400 for bad selectors', async () => {
      const outside = await store.call('GET', '/v1/state?namespace=reads/app&branch=dev&revision=1');
      expect(outside.statusCode).toBe(404);
      expect(errorOf(outside.body)).toEqual({
        type: 'not_found_error',
        code: 404,
        message: 'revision 1 is not in the history of branch "dev" of namespace "reads/app"',
      });
      expect((await store.call('GET', '/v1/state?namespace=reads/app&checkpoint=nope')).statusCode).toBe(404);
      expect((await store.call('GET', '/v1/state?namespace=reads/app&revision=99')).statusCode).toBe(404);
      const bad = await store.call('GET', '/v1/state?namespace=reads/app&revision=x');
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad.body).message).toMatch(/revision/);
      expect((await store.call('GET', '/v1/state?namespace=reads/app&revision=-1')).statusCode).toBe(400);
      expect((await store.call('GET', '/v1/state?namespace=%2Fetc')).statusCode).toBe(400);
    });
  });

  describe('POST /v1/diff', () => {
    it('compares head with a revision or checkpoint, or previews documents, writing nothing', async () => {
      const toRevision = await store.call('POST', '/v1/diff', {
        scope,
        revision_id: 1,
        checkpoint_name: '',
        documents: [],
      });
      expect(toRevision.json()).toEqual({
        from_revision: 2,
        to_revision: 1,
        changes: [
          { key: 'Z', type: 'delete', before: 'z' },
          { key: 'b', type: 'update', before: '2', after: '1' },
          { key: 'é', type: 'delete', before: 'e' },
        ],
      });
      expect((await store.call('POST', '/v1/diff', { scope, checkpoint_name: 'v1' })).json()).toEqual(
        toRevision.json(),
      );
      const preview = await store.call('POST', '/v1/diff', {
        scope,
        documents: [
          { key: 'b', content: '3' },
          { key: 'new', content: 'n' },
        ],
      });
      expect(preview.json()).toEqual({
        from_revision: 2,
        to_revision: 2,
        changes: [
          { key: 'b', type: 'update', before: '2', after: '3' },
          { key: 'new', type: 'create', after: 'n' },
        ],
      });
      expect((await store.call('GET', '/v1/state?namespace=reads/app')).json().revision).toBe(2);
    });

    it('answers 404 for unknown selectors and 400 for bad documents', async () => {
      expect((await store.call('POST', '/v1/diff', { scope, revision_id: 3 })).statusCode).toBe(404);
      expect((await store.call('POST', '/v1/diff', { scope, checkpoint_name: 'nope' })).statusCode).toBe(404);
      expect((await store.call('POST', '/v1/diff', { scope, documents: [{ key: '' }] })).statusCode).toBe(400);
      expect((await store.call('POST', '/v1/diff', { scope, revision_id: 'one' })).statusCode).toBe(400);
    });
  });

  describe('GET /v1/log and /v1/revisions/:id', () => {
    it('answers entries newest first with ISO timestamps and changes, paged with after and next_cursor', async () => {
      const log = (await store.call('GET', '/v1/log?namespace=reads/app&branch=main')).json();
      expect(log.next_cursor).toBeUndefined();
      expect(log.total).toBe(2);
      expect(
        log.entries.map((e: { id: number; parent_id: number; branch: string; message: string }) => [
          e.id,
          e.parent_id,
          e.branch,
          e.message,
        ]),
      ).toEqual([
        [2, 1, 'main', 'apply'],
        [1, 0, 'main', 'first'],
      ]);
      expect(log.entries[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(log.entries[1].changes).toEqual([
        { key: '__proto__', type: 'create', after: 'p' },
        { key: 'b', type: 'create', after: '1' },
      ]);
      const page = (await store.call('GET', '/v1/log?namespace=reads/app&branch=main&limit=1')).json();
      expect(page.entries.map((e: { id: number }) => e.id)).toEqual([2]);
      expect(page.next_cursor).toBe(2);
      // The count covers every page, so a client can say "2 revisions" after reading one.
      expect(page.total).toBe(2);
      const next = (
        await store.call('GET', `/v1/log?namespace=reads/app&branch=main&limit=1&after=${page.next_cursor}`)
      ).json();
      expect(next.entries.map((e: { id: number }) => e.id)).toEqual([1]);
      expect(next.next_cursor).toBeUndefined();
      expect(next.total).toBe(2);
      const dev = (await store.call('GET', '/v1/log?namespace=reads/app&branch=dev')).json();
      expect(dev.entries[0].message).toBe('branch from main@2');
      // A branch's log holds the revisions written on it, not its base's.
      expect(dev.total).toBe(1);
      expect((await store.call('GET', '/v1/log?namespace=none&branch=main')).json()).toEqual({ entries: [], total: 0 });
    });

    it('answers one revision with its changes, 404 when unknown, 400 for a bad id or limit', async () => {
      const one = await store.call('GET', '/v1/revisions/3?namespace=reads/app');
      expect(one.json()).toMatchObject({ id: 3, parent_id: 0, branch: 'dev', message: 'branch from main@2' });
      expect(one.json().changes).toHaveLength(4);
      expect((await store.call('GET', '/v1/revisions/9?namespace=reads/app')).statusCode).toBe(404);
      expect((await store.call('GET', '/v1/revisions/zero?namespace=reads/app')).statusCode).toBe(400);
      expect((await store.call('GET', '/v1/log?namespace=reads/app&limit=-5')).statusCode).toBe(400);
      expect((await store.call('GET', '/v1/log?namespace=reads/app&limit=5000')).statusCode).toBe(200);
    });
  });

  describe('GET /v1/branches and /v1/checkpoints', () => {
    it('lists branches sorted by name with the current flag and paging', async () => {
      const all = (await store.call('GET', '/v1/branches?namespace=reads/app&branch=dev')).json();
      expect(all).toEqual({
        branches: [
          { name: 'dev', base_revision: 2, head_revision: 3, current: true },
          { name: 'main', base_revision: 0, head_revision: 2, current: false },
        ],
      });
      const first = (await store.call('GET', '/v1/branches?namespace=reads/app&limit=1')).json();
      expect(first).toEqual({
        branches: [{ name: 'dev', base_revision: 2, head_revision: 3, current: false }],
        next_cursor: 'dev',
      });
      const second = (await store.call('GET', '/v1/branches?namespace=reads/app&limit=1&after=dev')).json();
      expect(second.branches.map((b: { name: string }) => b.name)).toEqual(['main']);
      expect((await store.call('GET', '/v1/branches?namespace=none')).json()).toEqual({ branches: [] });
      expect((await store.call('GET', '/v1/branches?namespace=reads/app&limit=x')).statusCode).toBe(400);
    });

    it('lists checkpoints with revision, branch and description', async () => {
      const list = (await store.call('GET', '/v1/checkpoints?namespace=reads/app')).json();
      expect(list.checkpoints).toEqual([
        { name: 'v1', revision_id: 1, branch: 'main', description: 'the first', created_at: expect.any(String) },
      ]);
    });
  });
});
