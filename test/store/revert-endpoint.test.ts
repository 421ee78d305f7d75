import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { branchReads, socketStore } from './support/socket-store.js';

// POST /v1/revert over a real socket: one revision undone as a new revision, as `git revert`.

const READER = 'st-revert-reader-0123456789abcdef';
const WRITER = 'st-revert-writer-0123456789abcdef';

describe('POST /v1/revert', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
      { name: 'ci', token: WRITER, verbs: ['write'], namespaces: ['*'] },
    ],
  });
  type Doc = { key: string; content?: string; delete?: boolean };
  const apply = async (namespace: string, documents: Doc[], message = '', branch = 'main') => {
    const answer = await socket.send('POST', '/v1/apply', { scope: { namespace, branch }, documents, message });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  const revert = (namespace: string, body: Record<string, unknown>, token?: string, branch = 'main') =>
    socket.send('POST', '/v1/revert', { scope: { namespace, branch }, ...body }, token);
  const { state, log } = branchReads(socket);

  it("undoes a create, a delete and an update of one revision, with git's message", async () => {
    const ns = 'rv/kinds';
    await apply(ns, [
      { key: 'changed', content: 'old' },
      { key: 'deleted', content: 'kept' },
    ]);
    const second = await apply(
      ns,
      [
        { key: 'added', content: 'new' },
        { key: 'changed', content: 'new' },
        { key: 'deleted', delete: true },
      ],
      'rotate the keys\nand more detail',
    );
    const answer = await revert(ns, { revision_id: second });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      revision: 3,
      noop: false,
      changes: [
        { key: 'added', type: 'delete', before: 'new' },
        { key: 'changed', type: 'update', before: 'new', after: 'old' },
        { key: 'deleted', type: 'create', after: 'kept' },
      ],
    });
    expect((await state(ns)).objects).toEqual({ changed: 'old', deleted: 'kept' });
    const [entry] = await log(ns);
    expect(entry).toMatchObject({
      id: 3,
      parent_id: 2,
      message: 'Revert "rotate the keys"\n\nThis reverts revision 2.',
    });
  });

  it('reverts an old revision and leaves later changes of other documents alone', async () => {
    const ns = 'rv/old';
    await apply(ns, [{ key: 'a', content: '1' }]);
    const middle = await apply(ns, [{ key: 'b', content: '1' }]);
    await apply(ns, [{ key: 'c', content: '1' }]);
    await apply(ns, [{ key: 'a', content: '2' }]);
    const answer = await revert(ns, { revision_id: middle, message: 'drop b' });
    expect(answer.body).toMatchObject({
      revision: 5,
      noop: false,
      changes: [{ key: 'b', type: 'delete', before: '1' }],
    });
    expect((await state(ns)).objects).toEqual({ a: '2', c: '1' });
    expect((await log(ns))[0].message).toBe('drop b');
  });

  it('is a no-op once undone', async () => {
    const ns = 'rv/noop';
    await apply(ns, [{ key: 'a', content: '1' }]);
    const second = await apply(ns, [{ key: 'a', content: '2' }]);
    expect((await revert(ns, { revision_id: second })).status).toBe(200);
    const again = await revert(ns, { revision_id: second });
    expect(again.body).toEqual({ revision: 3, noop: true, changes: [] });
    expect(await log(ns)).toHaveLength(3);
  });

  it('refuses with 409, writing nothing, when a later revision changed one of its documents again', async () => {
    const ns = 'rv/conflict';
    await apply(ns, [{ key: 'x', content: '0' }]);
    const target = await apply(ns, [
      { key: 'x', content: '1' },
      { key: 'y', content: '1' },
      { key: 'z', content: '1' },
    ]);
    const later = await apply(ns, [{ key: 'x', content: '2' }]);
    await apply(ns, [{ key: 'y', content: '2' }]);
    // Deleted again since: already as the revert would leave it, which is no conflict (as in git).
    await apply(ns, [{ key: 'z', delete: true }]);
    const before = await state(ns);
    const answer = await revert(ns, { revision_id: target });
    expect(answer.status).toBe(409);
    const error = answer.body.error as { type: string; message: string };
    expect(error.type).toBe('conflict_error');
    expect(error.message).toBe(
      `revision ${target} cannot be reverted on branch "main" of namespace "rv/conflict": 2 documents it changed ` +
        `have changed again since: "x" (changed again in revision ${later}), "y" (changed again in revision 4); ` +
        'nothing was written. Revert the later revisions first (newest first), or apply the contents you want',
    );
    expect(await state(ns)).toEqual(before);
    // Reverting the later ones first, newest first, makes the revert possible.
    expect((await revert(ns, { revision_id: 4 })).status).toBe(200);
    expect((await revert(ns, { revision_id: later })).status).toBe(200);
    const undone = await revert(ns, { revision_id: target });
    expect(undone.body.changes).toEqual([
      { key: 'x', type: 'update', before: '1', after: '0' },
      { key: 'y', type: 'delete', before: '1' },
    ]);
    expect((await state(ns)).objects).toEqual({ x: '0' });
  });

  it('names a bounded number of conflicting documents, then how many more', async () => {
    const ns = 'rv/many';
    const keys = Array.from({ length: 25 }, (_, i) => `doc-${String(i).padStart(2, '0')}`);
    const target = await apply(
      ns,
      keys.map((key) => ({ key, content: '1' })),
    );
    await apply(
      ns,
      keys.map((key) => ({ key, content: '2' })),
    );
    const error = (await revert(ns, { revision_id: target })).body.error as { message: string };
    expect(error.message).toContain('25 documents it changed have changed again since: "doc-00" (changed again');
    expect(error.message).toContain('"doc-09" (changed again in revision 2) and 15 more;');
    expect(error.message).not.toContain('doc-10');
  });

  it('reverts a revision the branch was made from, and refuses one its history does not reach', async () => {
    const ns = 'rv/branches';
    const first = await apply(ns, [{ key: 'a', content: '1' }]);
    const fork = await apply(ns, [{ key: 'b', content: '1' }]);
    const created = await socket.send('POST', '/v1/branches', { scope: { namespace: ns }, name: 'feature' });
    expect(created.status).toBe(200);
    const afterFork = await apply(ns, [{ key: 'c', content: '1' }]);

    const answer = await revert(ns, { revision_id: first }, undefined, 'feature');
    expect(answer.body).toMatchObject({ noop: false, changes: [{ key: 'a', type: 'delete' }] });
    expect((await state(ns, 'feature')).objects).toEqual({ b: '1' });
    expect((await state(ns)).objects).toEqual({ a: '1', b: '1', c: '1' });
    expect(fork).toBe(2);

    const unreachable = await revert(ns, { revision_id: afterFork }, undefined, 'feature');
    expect(unreachable.status).toBe(404);
    expect((unreachable.body.error as { message: string }).message).toBe(
      `revision ${afterFork} is not in the history of branch "feature" of namespace "rv/branches"`,
    );
    const missing = await revert(ns, { revision_id: 999 });
    expect(missing.status).toBe(404);
  });

  it('points a revision that came in with a merge at the merge revision to revert instead', async () => {
    const ns = 'rv/merged';
    await apply(ns, [{ key: 'a', content: '1' }]);
    expect((await socket.send('POST', '/v1/branches', { scope: { namespace: ns }, name: 'feature' })).status).toBe(200);
    const onFeature = await apply(ns, [{ key: 'a', content: '2' }], 'feature change', 'feature');
    const merged = await socket.send('POST', '/v1/merge', { scope: { namespace: ns }, from_branch: 'feature' });
    expect(merged.status).toBe(200);
    const refused = await revert(ns, { revision_id: onFeature });
    expect(refused.status).toBe(404);
    expect((refused.body.error as { message: string }).message).toBe(
      `revision ${onFeature} is not in the history of branch "main" of namespace "rv/merged": it came in with merge ` +
        `revision ${merged.body.revision as number}; revert that to take the whole merge back, or revert revision ` +
        `${onFeature} on its own branch and merge again`,
    );
    const whole = await revert(ns, { revision_id: merged.body.revision });
    expect(whole.status).toBe(200);
    expect((await state(ns)).objects).toEqual({ a: '1' });
  });

  it('names the field of a bad request', async () => {
    const missing = await socket.send('POST', '/v1/revert', { scope: { namespace: 'rv/bad' } });
    expect(missing.status).toBe(400);
    expect((missing.body.error as { message: string }).message).toContain('revision_id');
    const zero = await revert('rv/bad', { revision_id: 0 });
    expect(zero.status).toBe(400);
    expect((zero.body.error as { message: string }).message).toContain('revision_id must be at least 1');
    const unknown = await revert('rv/bad', { revision_id: 1, revison: 2 });
    expect((unknown.body.error as { message: string }).message).toContain('unknown field "revison"');
  });

  it('needs write: a read-only token is refused, a write-only one sees keys only', async () => {
    const ns = 'rv/auth';
    await apply(ns, [{ key: 'secret', content: 'one' }]);
    const second = await apply(ns, [{ key: 'secret', content: 'two' }]);
    const refused = await revert(ns, { revision_id: second }, READER);
    expect(refused.status).toBe(403);
    expect((refused.body.error as { type: string }).type).toBe('permission_error');
    expect((await state(ns)).revision).toBe(second);

    const written = await revert(ns, { revision_id: second }, WRITER);
    expect(written.body).toEqual({
      revision: 3,
      noop: false,
      changes: [{ key: 'secret', type: 'update' }],
      contents_omitted: true,
    });
  });

  it('replays its answer to a retry with the same Idempotency-Key, reverting once', async () => {
    const ns = 'rv/idem';
    await apply(ns, [{ key: 'a', content: '1' }]);
    const second = await apply(ns, [{ key: 'a', content: '2' }]);
    const send = () =>
      fetch(`${socket.base}/v1/revert`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': 'revert-1',
        },
        body: JSON.stringify({ scope: { namespace: ns }, revision_id: second }),
      });
    const first = await send();
    const firstBody = await first.json();
    await apply(ns, [{ key: 'a', content: '3' }]);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(firstBody);
    expect((await state(ns)).objects).toEqual({ a: '3' });
  });

  it('takes expected_revision as the other writes do', async () => {
    const ns = 'rv/cas';
    await apply(ns, [{ key: 'a', content: '1' }]);
    const second = await apply(ns, [{ key: 'a', content: '2' }]);
    const moved = await revert(ns, { revision_id: second, expected_revision: 1 });
    expect(moved.status).toBe(409);
    expect((moved.body.error as { head_revision: number }).head_revision).toBe(second);
  });

  it('counts in the operation metrics', async () => {
    const metrics = await fetch(`${socket.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    expect(text).toMatch(/svc_operations_total\{operation="revert",result="success"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="revert",result="noop"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="revert",result="error"\} \d+/);
  });
});
