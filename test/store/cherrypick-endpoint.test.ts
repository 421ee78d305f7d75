import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { branchReads, branchWrites, socketStore, type Doc } from './support/socket-store.js';

// POST /v1/cherry-pick over a real socket: one revision of another branch made on this one, as
// `git cherry-pick`, without merging the rest of that branch.

const READER = 'st-pick-reader-0123456789abcdef';
const WRITER = 'st-pick-writer-0123456789abcdef';

describe('POST /v1/cherry-pick', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
      { name: 'ci', token: WRITER, verbs: ['write'], namespaces: ['*'] },
    ],
  });
  const writes = branchWrites(socket);
  const apply = async (namespace: string, branch: string, documents: Doc[], message = '') => {
    const answer = await socket.send('POST', '/v1/apply', { scope: { namespace, branch }, documents, message });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  const pick = (namespace: string, body: Record<string, unknown>, token?: string, branch = 'main') =>
    socket.send('POST', '/v1/cherry-pick', { scope: { namespace, branch }, ...body }, token);
  const { state, log } = branchReads(socket);
  const errorOf = (answer: { body: Record<string, unknown> }) => answer.body.error as { type: string; message: string };

  /** `main` with a, b and gone; `feature` made from it. */
  const forked = async (ns: string) => {
    await apply(ns, 'main', [
      { key: 'a', content: 'a1' },
      { key: 'b', content: 'b1' },
      { key: 'gone', content: 'g1' },
    ]);
    await writes.branchFrom(ns, 'main', 'feature');
  };

  it("takes one revision's create, update and delete from another branch, with git's -x message", async () => {
    const ns = 'cp/kinds';
    await forked(ns);
    await apply(ns, 'feature', [{ key: 'b', content: 'b-feature' }], 'unrelated feature work');
    const picked = await apply(
      ns,
      'feature',
      [
        { key: 'a', content: 'a2' },
        { key: 'new', content: 'n1' },
        { key: 'gone', delete: true },
      ],
      'rotate the keys\nand more detail',
    );
    const mainHead = await apply(ns, 'main', [{ key: 'main-only', content: 'm' }]);

    const answer = await pick(ns, { revision_id: picked });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      revision: picked + 2,
      noop: false,
      changes: [
        { key: 'a', type: 'update', before: 'a1', after: 'a2' },
        { key: 'gone', type: 'delete', before: 'g1' },
        { key: 'new', type: 'create', after: 'n1' },
      ],
    });
    // The feature's other revision is not taken.
    expect((await state(ns)).objects).toEqual({ a: 'a2', b: 'b1', 'main-only': 'm', new: 'n1' });
    const [entry] = await log(ns);
    expect(entry).toEqual(
      expect.objectContaining({
        id: picked + 2,
        parent_id: mainHead,
        message: `rotate the keys\nand more detail\n\n(cherry picked from revision ${picked} of branch "feature")`,
      }),
    );
    expect((await state(ns, 'feature')).objects).toEqual({ a: 'a2', b: 'b-feature', new: 'n1' });
  });

  it('takes the message given instead', async () => {
    const ns = 'cp/message';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    expect((await pick(ns, { revision_id: picked, message: 'hotfix from feature' })).status).toBe(200);
    expect((await log(ns))[0].message).toBe('hotfix from feature');
  });

  it('is a no-op the second time, and where the branch already has what the revision left', async () => {
    const ns = 'cp/noop';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    const first = await pick(ns, { revision_id: picked });
    expect(first.body).toMatchObject({ noop: false });
    const again = await pick(ns, { revision_id: picked });
    expect(again.body).toEqual({ revision: first.body.revision, noop: true, changes: [] });
    expect(await log(ns)).toHaveLength(2);

    // Made by hand on the target, and merged in: each is no conflict and needs nothing.
    const both = await apply(ns, 'feature', [{ key: 'b', content: 'b2' }]);
    await apply(ns, 'main', [{ key: 'b', content: 'b2' }]);
    expect((await pick(ns, { revision_id: both })).body).toMatchObject({ noop: true, changes: [] });
    const merged = await apply(ns, 'feature', [{ key: 'c', content: 'c1' }]);
    expect((await socket.send('POST', '/v1/merge', { scope: { namespace: ns }, from_branch: 'feature' })).status).toBe(
      200,
    );
    expect((await pick(ns, { revision_id: merged })).body).toMatchObject({ noop: true, changes: [] });
  });

  it('refuses with 409, writing nothing, when a document it changed is neither as it found nor as it left it', async () => {
    const ns = 'cp/conflict';
    await forked(ns);
    const picked = await apply(ns, 'feature', [
      { key: 'a', content: 'a2' },
      { key: 'b', content: 'b2' },
      { key: 'gone', content: 'g2' },
      { key: 'same', content: 's1' },
    ]);
    const changed = await apply(ns, 'main', [{ key: 'a', content: 'a-main' }]);
    const deleted = await apply(ns, 'main', [{ key: 'gone', delete: true }]);
    // Created on both with the same content: already as the revision left it.
    await apply(ns, 'main', [{ key: 'same', content: 's1' }]);
    const before = await state(ns);
    const answer = await pick(ns, { revision_id: picked });
    expect(answer.status).toBe(409);
    expect(errorOf(answer).type).toBe('conflict_error');
    expect(errorOf(answer).message).toBe(
      `revision ${picked} of branch "feature" cannot be cherry-picked onto branch "main" of namespace "cp/conflict": ` +
        `2 documents it changed are different there from what it found: "a" (changed in revision ${changed}), ` +
        `"gone" (deleted in revision ${deleted}); nothing was written. Apply the contents you want to "main", or ` +
        `make those documents what revision ${picked} found and cherry-pick again`,
    );
    expect(await state(ns)).toEqual(before);
    expect(await log(ns)).toHaveLength(4);

    // Put back as the revision found them, it applies.
    await apply(ns, 'main', [
      { key: 'a', content: 'a1' },
      { key: 'gone', content: 'g1' },
    ]);
    const resolved = await pick(ns, { revision_id: picked });
    expect(resolved.body.changes).toEqual([
      { key: 'a', type: 'update', before: 'a1', after: 'a2' },
      { key: 'b', type: 'update', before: 'b1', after: 'b2' },
      { key: 'gone', type: 'update', before: 'g1', after: 'g2' },
    ]);
  });

  it("says when a conflicting document was never on the branch, or came with the branch's start", async () => {
    const ns = 'cp/absent';
    await apply(ns, 'main', [{ key: 'base', content: '1' }]);
    await writes.branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'only-feature', content: '1' }]);
    const picked = await apply(ns, 'feature', [
      { key: 'base', content: '2' },
      { key: 'only-feature', content: '2' },
    ]);
    await apply(ns, 'main', [{ key: 'base', content: 'main' }]);
    await writes.branchFrom(ns, 'main', 'other');
    const message = errorOf(await pick(ns, { revision_id: picked }, undefined, 'other')).message;
    // A branch's first revision ("branch from main@5") writes every document it starts with.
    const made = (await log(ns, 'other'))[0].id;
    expect(message).toContain(`"base" (changed in revision ${made}), "only-feature" (not on "other"); nothing was`);
  });

  it('names a bounded number of conflicting documents, then how many more', async () => {
    const ns = 'cp/many';
    const keys = Array.from({ length: 25 }, (_, i) => `doc-${String(i).padStart(2, '0')}`);
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: '1' })),
    );
    await writes.branchFrom(ns, 'main', 'feature');
    const picked = await apply(
      ns,
      'feature',
      keys.map((key) => ({ key, content: '2' })),
    );
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: '3' })),
    );
    const message = errorOf(await pick(ns, { revision_id: picked })).message;
    expect(message).toContain('25 documents it changed are different there from what it found: "doc-00" (changed');
    expect(message).toContain('"doc-09" (changed in revision 4) and 15 more;');
    expect(message).not.toContain('doc-10');
  });

  it("refuses a revision of the branch's own history as empty, as git does", async () => {
    const ns = 'cp/own';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await writes.branchFrom(ns, 'main', 'feature');
    const own = await apply(ns, 'feature', [{ key: 'a', content: '2' }]);
    const before = await state(ns, 'feature');

    const mine = await pick(ns, { revision_id: own }, undefined, 'feature');
    expect(mine.status).toBe(409);
    expect(errorOf(mine)).toMatchObject({
      type: 'conflict_error',
      message:
        `revision ${own} of branch "feature" is already in the history of branch "feature" of namespace "cp/own", ` +
        'so there is nothing to cherry-pick; nothing was written. To take it back, revert it instead',
    });
    // Reached through the base the branch was made from, too.
    const inherited = await pick(ns, { revision_id: first }, undefined, 'feature');
    expect(inherited.status).toBe(409);
    expect(errorOf(inherited).message).toContain(`revision ${first} of branch "main" is already in the history`);
    expect(await state(ns, 'feature')).toEqual(before);
  });

  it('takes a merge revision as its changes relative to its first parent', async () => {
    const ns = 'cp/merge';
    await forked(ns);
    await writes.branchFrom(ns, 'main', 'release');
    await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    await apply(ns, 'main', [{ key: 'b', content: 'b2' }]);
    const merged = await socket.send('POST', '/v1/merge', { scope: { namespace: ns }, from_branch: 'feature' });
    expect(merged.status).toBe(200);
    // The merge took only a from feature; b, main's own change before it, is not part of it.
    const answer = await pick(ns, { revision_id: merged.body.revision }, undefined, 'release');
    expect(answer.body).toMatchObject({
      noop: false,
      changes: [{ key: 'a', type: 'update', before: 'a1', after: 'a2' }],
    });
    expect((await state(ns, 'release')).objects).toEqual({ a: 'a2', b: 'b1', gone: 'g1' });
  });

  it('is 404 for a revision the namespace does not have, saying when gc removed it', async () => {
    const ns = 'cp/missing';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    await apply(ns, 'main', [{ key: 'a', content: '3' }]);
    await writes.branchFrom(ns, 'main', 'feature');

    const never = await pick(ns, { revision_id: 999 }, undefined, 'feature');
    expect(never.status).toBe(404);
    expect(errorOf(never)).toMatchObject({
      type: 'not_found_error',
      message: 'revision 999 does not exist in namespace "cp/missing"',
    });
    const gc = await socket.send('POST', '/v1/gc', { keep: 1, namespace: ns });
    expect(gc.status).toBe(200);
    expect(gc.body.pruned as number).toBeGreaterThan(0);
    const collected = await pick(ns, { revision_id: 1 }, undefined, 'feature');
    expect(collected.status).toBe(404);
    expect(errorOf(collected).message).toBe(
      'revision 1 does not exist in namespace "cp/missing" (it was removed by garbage collection, or with the ' +
        'branch it was on)',
    );
    const noBranch = await pick(ns, { revision_id: 3 }, undefined, 'featur');
    expect(noBranch.status).toBe(404);
    expect(errorOf(noBranch).message).toBe(
      'branch "featur" does not exist in namespace "cp/missing", so there is nothing to cherry-pick onto; its ' +
        'branches are "main", "feature". Create the branch first, then cherry-pick onto it',
    );
  });

  it('answers a dry run with what it would write, writing nothing and refusing as the real one', async () => {
    const ns = 'cp/dry';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    const head = (await state(ns)).revision;
    const preview = await pick(ns, { revision_id: picked, dry_run: true });
    expect(preview.body).toEqual({
      revision: head,
      noop: false,
      changes: [{ key: 'a', type: 'update', before: 'a1', after: 'a2' }],
      dry_run: true,
    });
    expect((await state(ns)).revision).toBe(head);
    await apply(ns, 'main', [{ key: 'a', content: 'a-main' }]);
    const refused = await pick(ns, { revision_id: picked, dry_run: true });
    expect(refused.status).toBe(409);
    expect(errorOf(refused).message).toContain('"a" (changed in revision');
  });

  it('names the field of a bad request', async () => {
    const missing = await socket.send('POST', '/v1/cherry-pick', { scope: { namespace: 'cp/bad' } });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).message).toContain('revision_id');
    const zero = await pick('cp/bad', { revision_id: 0 });
    expect(errorOf(zero).message).toContain('revision_id must be at least 1');
    const unknown = await pick('cp/bad', { revision_id: 1, revison: 2 });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).message).toContain('unknown field "revison"');
  });

  it('needs write: a read-only token is refused, a write-only one sees keys only', async () => {
    const ns = 'cp/auth';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'secret' }]);
    const refused = await pick(ns, { revision_id: picked }, READER);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).type).toBe('permission_error');
    const written = await pick(ns, { revision_id: picked }, WRITER);
    expect(written.body).toEqual({
      revision: picked + 1,
      noop: false,
      changes: [{ key: 'a', type: 'update' }],
      contents_omitted: true,
    });
  });

  it('replays its answer to a retry with the same Idempotency-Key, picking once', async () => {
    const ns = 'cp/idem';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    const send = () =>
      fetch(`${socket.base}/v1/cherry-pick`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': 'pick-1',
        },
        body: JSON.stringify({ scope: { namespace: ns }, revision_id: picked }),
      });
    const first = await send();
    const firstBody = await first.json();
    await apply(ns, 'main', [{ key: 'a', content: 'a3' }]);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(firstBody);
    expect((await state(ns)).objects.a).toBe('a3');
  });

  it('takes expected_revision as the other writes do', async () => {
    const ns = 'cp/cas';
    await forked(ns);
    const picked = await apply(ns, 'feature', [{ key: 'a', content: 'a2' }]);
    const moved = await pick(ns, { revision_id: picked, expected_revision: 7 });
    expect(moved.status).toBe(409);
    expect((moved.body.error as { head_revision: number }).head_revision).toBe(1);
    expect((await pick(ns, { revision_id: picked, expected_revision: 1 })).status).toBe(200);
  });

  it('counts in the operation metrics as cherry_pick', async () => {
    const metrics = await fetch(`${socket.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    expect(text).toMatch(/svc_operations_total\{operation="cherry_pick",result="success"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="cherry_pick",result="noop"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="cherry_pick",result="error"\} \d+/);
    expect(text).toMatch(/svc_changed_documents_total\{operation="cherry_pick"\} \d+/);
  });
});
