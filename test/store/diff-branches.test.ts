import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Comparing two branches (`git diff main..feature`, `dolt diff main feature`) used to need a checkpoint
// of the other branch's head first, which takes the write permission and may move a checkpoint.

describe('POST /v1/diff with branch_name', () => {
  const socket = socketStore();

  it("compares the scope's head with another branch's head, and previews documents on top of it", async () => {
    const main = { namespace: 'diff-br', branch: 'main' };
    const apply = (branch: string, documents: unknown[]) =>
      socket.send('POST', '/v1/apply', { scope: { namespace: 'diff-br', branch }, documents });
    await apply('main', [
      { key: 'a', content: '1' },
      { key: 'b', content: 'same' },
    ]);
    expect((await socket.send('POST', '/v1/branches', { scope: main, name: 'feature' })).status).toBe(200);
    await apply('feature', [
      { key: 'a', content: '2' },
      { key: 'c', content: 'new' },
    ]);
    await apply('main', [{ key: 'b', delete: true }]);
    // Revision ids are the namespace's: the branch's first revision is 2.
    const heads = { main: 4, feature: 3 };

    const diff = await socket.send('POST', '/v1/diff', { scope: main, branch_name: 'feature' });
    expect(diff).toEqual({
      status: 200,
      body: {
        from_revision: heads.main,
        to_revision: heads.feature,
        changes: [
          { key: 'a', type: 'update', before: '1', after: '2' },
          { key: 'b', type: 'create', after: 'same' },
          { key: 'c', type: 'create', after: 'new' },
        ],
      },
    });
    // What a restore from the branch then writes is exactly that.
    const restored = await socket.send('POST', '/v1/restore', { scope: main, from_branch: 'feature' });
    expect((restored.body as { changes: unknown }).changes).toEqual((diff.body as { changes: unknown }).changes);
    expect((await socket.send('POST', '/v1/diff', { scope: main, branch_name: 'feature' })).body).toMatchObject({
      changes: [],
    });

    const preview = await socket.send('POST', '/v1/diff', {
      scope: main,
      branch_name: 'feature',
      documents: [{ key: 'c', content: 'newer' }],
    });
    expect(preview.body).toEqual({
      from_revision: heads.feature,
      to_revision: heads.feature,
      changes: [{ key: 'c', type: 'update', before: 'new', after: 'newer' }],
    });
  });

  it('names a branch that does not exist', async () => {
    const answer = await socket.send('POST', '/v1/diff', {
      scope: { namespace: 'diff-br', branch: 'main' },
      branch_name: 'featrue',
    });
    expect(answer.status).toBe(404);
    expect((answer.body as { error: { message: string } }).error.message).toBe(
      'branch "featrue" does not exist in namespace "diff-br"',
    );
  });
});

describe('a branch compared with the revision it was made from', () => {
  const socket = socketStore();

  it('diffs against its base, after gc too, and names a revision gc removed or a branch that does not exist', async () => {
    const main = { namespace: 'diff-base', branch: 'main' };
    const feat = { namespace: 'diff-base', branch: 'feat' };
    const apply = (scope: typeof main, documents: unknown[]) => socket.send('POST', '/v1/apply', { scope, documents });
    await apply(main, [
      { key: 'a', content: '1' },
      { key: 'b', content: '1' },
    ]);
    const made = await socket.send('POST', '/v1/branches', { scope: main, name: 'feat' });
    expect(made.body).toMatchObject({ base_revision: 1 });
    for (const content of ['2', '3', '4']) await apply(feat, [{ key: 'a', content }]);
    await apply(main, [{ key: 'b', content: 'main2' }]);
    // What the branch changed since it started, as `git diff main...feat`: main's later change is not in it.
    const expected = { changes: [{ key: 'a', type: 'update', before: '4', after: '1' }] };
    expect((await socket.send('POST', '/v1/diff', { scope: feat, revision_id: 1 })).body).toMatchObject(expected);
    expect((await socket.send('POST', '/v1/gc', { keep: 1 })).status).toBe(200);
    expect((await socket.send('POST', '/v1/diff', { scope: feat, revision_id: 1 })).body).toMatchObject(expected);
    // The branch's own first revision is gone: said so, not as a revision that never was.
    const gone = await socket.send('POST', '/v1/diff', { scope: feat, revision_id: 2 });
    expect(gone.status).toBe(404);
    expect((gone.body as { error: { message: string } }).error.message).toContain(
      'it was removed by garbage collection, or with the branch it was on',
    );
    const read = await socket.send('GET', `/v1/revisions/2?namespace=${encodeURIComponent(feat.namespace)}`);
    expect(read.status).toBe(404);
    expect((read.body as { error: { message: string } }).error.message).toContain('removed by garbage collection');
    const never = await socket.send('GET', `/v1/revisions/99?namespace=${encodeURIComponent(feat.namespace)}`);
    expect((never.body as { error: { message: string } }).error.message).not.toContain('removed');
    const typo = await socket.send('POST', '/v1/rollback', { scope: { ...feat, branch: 'faet' }, revision_id: 1 });
    expect((typo.body as { error: { message: string } }).error.message).toContain('the namespace has no branch "faet"');
  });
});
