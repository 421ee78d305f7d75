import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// Rolling a branch back past a merge returns it to before the merge, as `dolt reset --hard` does: the
// merge no longer counts for the next merge base, so merging the same branch again brings its changes
// back. Restoring the branch to one of its own earlier revisions does the same.

describe('rollback and restore past a merge', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const merge = (namespace: string, from: string, dryRun = false) =>
    socket.send('POST', '/v1/merge', {
      scope: { namespace, branch: 'main' },
      from_branch: from,
      ...(dryRun ? { dry_run: true } : {}),
    });
  const objects = async (namespace: string) =>
    (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=main`)).body.objects as Record<string, string>;

  /** main@1 {a: 1}, main@2 {b: 1}; hotfix from main@1 changes a; hotfix merged into main. */
  async function mergedHotfix(ns: string) {
    const fork = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const beforeMerge = await apply(ns, 'main', [{ key: 'b', content: '1' }]);
    await branchFrom(ns, 'main', 'hotfix', fork);
    const hot = await apply(ns, 'hotfix', [{ key: 'a', content: 'hot' }]);
    const merged = await merge(ns, 'hotfix');
    expect(merged.body).toMatchObject({ noop: false, merge_base: fork, from_revision: hot });
    return { fork, beforeMerge, hot, mergeRevision: merged.body.revision as number };
  }

  it('merges the branch again after a rollback to before the merge', async () => {
    const ns = 'sf2/rollback-merge';
    const { fork, beforeMerge, hot } = await mergedHotfix(ns);
    const rolledBack = await socket.send('POST', '/v1/rollback', {
      scope: { namespace: ns, branch: 'main' },
      revision_id: beforeMerge,
    });
    expect(rolledBack.status).toBe(200);
    expect(await objects(ns)).toEqual({ a: '1', b: '1' });

    const preview = await merge(ns, 'hotfix', true);
    expect(preview.body).toMatchObject({
      noop: false,
      merge_base: fork,
      from_revision: hot,
      changes: [{ key: 'a', type: 'update', before: '1', after: 'hot' }],
    });
    const again = await merge(ns, 'hotfix');
    expect(again.body).toMatchObject({ noop: false, merge_base: fork });
    expect(await objects(ns)).toEqual({ a: 'hot', b: '1' });
  });

  it('keeps the merge when the rollback goes back to a revision after it', async () => {
    const ns = 'sf2/rollback-after-merge';
    const { hot, mergeRevision } = await mergedHotfix(ns);
    await apply(ns, 'main', [{ key: 'c', content: '1' }]);
    const rolledBack = await socket.send('POST', '/v1/rollback', {
      scope: { namespace: ns, branch: 'main' },
      revision_id: mergeRevision,
    });
    expect(rolledBack.body).toMatchObject({ noop: false });
    expect((await merge(ns, 'hotfix', true)).body).toMatchObject({ noop: true, merge_base: hot });
  });

  it('merges the branch again after a restore from one of its own revisions before the merge', async () => {
    const ns = 'sf2/restore-merge';
    const { fork, beforeMerge } = await mergedHotfix(ns);
    const restored = await socket.send('POST', '/v1/restore', {
      scope: { namespace: ns, branch: 'main' },
      from_revision: beforeMerge,
    });
    expect(restored.status).toBe(200);
    const preview = await merge(ns, 'hotfix', true);
    expect(preview.body).toMatchObject({ noop: false, merge_base: fork, changes: [{ key: 'a', after: 'hot' }] });
  });

  it('keeps the merge when a restore copies another branch', async () => {
    const ns = 'sf2/restore-other';
    const { fork, hot } = await mergedHotfix(ns);
    await branchFrom(ns, 'main', 'old', fork);
    const restored = await socket.send('POST', '/v1/restore', {
      scope: { namespace: ns, branch: 'main' },
      from_branch: 'old',
    });
    expect(restored.body).toMatchObject({ noop: false });
    expect((await merge(ns, 'hotfix', true)).body).toMatchObject({ noop: true, merge_base: hot });
  });
});
