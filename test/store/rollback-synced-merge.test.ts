import { describe, expect, it } from 'vitest';
import { branchReads, branchWrites, socketStore } from './support/socket-store.js';

// A rollback of a branch to its own history restarts its line there, as `git reset --hard` does: its
// later heads no longer reach the revisions it discarded, also when another branch took one of them
// (kept up to date by merging the rolled-back branch), so merging that branch again brings its changes back.

describe('rollback past a merge that another branch synced with', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const { state, log } = branchReads(socket);
  const merge = (namespace: string, branch: string, from: string, dryRun = false) =>
    socket.send('POST', '/v1/merge', {
      scope: { namespace, branch },
      from_branch: from,
      ...(dryRun ? { dry_run: true } : {}),
    });
  const rollback = (namespace: string, revision: number) =>
    socket.send('POST', '/v1/rollback', { scope: { namespace, branch: 'main' }, revision_id: revision });

  it('merges the branch again with the rollback target as merge base', async () => {
    const ns = 'rsm/synced';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'feat');
    await apply(ns, 'feat', [{ key: 'd', content: 'feature-doc' }]);
    const beforeMerge = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    const merged = await merge(ns, 'main', 'feat');
    expect(merged.body).toMatchObject({ noop: false });
    const synced = await merge(ns, 'feat', 'main');
    expect(synced.body).toMatchObject({ noop: false });
    expect((await rollback(ns, beforeMerge)).body).toMatchObject({ noop: false });
    expect((await state(ns)).objects).toEqual({ a: '2' });

    const preview = await merge(ns, 'main', 'feat', true);
    expect(preview.body).toMatchObject({
      noop: false,
      merge_base: beforeMerge,
      from_revision: synced.body.revision,
      changes: [{ key: 'd', type: 'create', after: 'feature-doc' }],
    });
    expect((await merge(ns, 'main', 'feat')).body).toMatchObject({ noop: false, merge_base: beforeMerge });
    expect((await state(ns)).objects).toEqual({ a: '2', d: 'feature-doc' });
    // The log is the branch's record of what was written: the discarded merge stays listed.
    expect((await log(ns)).map((entry) => entry.id)).toContain(merged.body.revision);
  });

  it('leaves the merges of a branch that took a discarded revision as they were', async () => {
    // x took main's merge of feat, then main rolled back before it: x still has feat's change, and
    // merging feat into x later judges against what x took (feat's head then), not against main@1.
    const ns = 'rsm/third-branch';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'feat');
    await branchFrom(ns, 'main', 'x');
    const featHead = await apply(ns, 'feat', [{ key: 'd', content: 'x' }]);
    const beforeMerge = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    expect((await merge(ns, 'main', 'feat')).body).toMatchObject({ noop: false });
    expect((await merge(ns, 'x', 'main')).body).toMatchObject({ noop: false });
    expect((await rollback(ns, beforeMerge)).body).toMatchObject({ noop: false });

    await apply(ns, 'feat', [{ key: 'd', delete: true }]);
    const preview = await merge(ns, 'x', 'feat', true);
    // Without x's reach through main's discarded merge, d would be a conflict (or its delete lost).
    expect(preview.body).toMatchObject({ noop: false, merge_base: featHead, changes: [{ key: 'd', type: 'delete' }] });
  });

  it('merges again a branch made from a revision the rollback discarded', async () => {
    const ns = 'rsm/based';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await apply(ns, 'main', [{ key: 'c', content: '1' }]);
    await branchFrom(ns, 'main', 'keep');
    expect((await rollback(ns, first)).body).toMatchObject({ noop: false });

    const preview = await merge(ns, 'main', 'keep', true);
    expect(preview.body).toMatchObject({ noop: false, merge_base: first, changes: [{ key: 'c', type: 'create' }] });
  });

  it('keeps the first restart when a second rollback goes back to a revision after it', async () => {
    const ns = 'rsm/twice';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'feat');
    await apply(ns, 'feat', [{ key: 'd', content: 'x' }]);
    const beforeMerge = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    await merge(ns, 'main', 'feat');
    await merge(ns, 'feat', 'main');
    await rollback(ns, beforeMerge);
    const afterRollback = await apply(ns, 'main', [{ key: 'e', content: '1' }]);
    await apply(ns, 'main', [{ key: 'f', content: '1' }]);
    expect((await rollback(ns, afterRollback)).body).toMatchObject({ noop: false });

    const preview = await merge(ns, 'main', 'feat', true);
    expect(preview.body).toMatchObject({ noop: false, merge_base: beforeMerge, changes: [{ key: 'd', after: 'x' }] });
  });
});
