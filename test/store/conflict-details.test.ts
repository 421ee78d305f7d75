import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore, type SocketAnswer } from './support/socket-store.js';

// Every 409 of the store says why in `reason`, and what a retry needs (heads, merge base, the
// documents in the way), so an agent retries without parsing the message.

describe('machine-readable store conflicts', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const error = (answer: SocketAnswer) => answer.body.error as Record<string, unknown>;

  it('names a merge conflict, its documents, merge base and both heads', async () => {
    const ns = 'cd/merge';
    const base = await apply(ns, 'main', [
      { key: 'cfg.json', content: '0' },
      { key: 'gone', content: '0' },
      { key: 'calm', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'agent-7');
    const head = await apply(ns, 'main', [
      { key: 'cfg.json', content: 'main' },
      { key: 'gone', delete: true },
    ]);
    const from = await apply(ns, 'agent-7', [
      { key: 'cfg.json', content: 'agent' },
      { key: 'gone', content: 'kept' },
    ]);
    for (const dryRun of [false, true]) {
      const answer = await socket.send('POST', '/v1/merge', {
        scope: { namespace: ns },
        from_branch: 'agent-7',
        dry_run: dryRun,
      });
      expect(answer.status).toBe(409);
      expect(error(answer)).toEqual({
        type: 'conflict_error',
        message: expect.stringContaining('cannot be merged into "main"'),
        code: 409,
        reason: 'merge_conflict',
        head_revision: head,
        from_head_revision: from,
        merge_base: base,
        conflicts: [
          { key: 'cfg.json', reason: 'both_changed' },
          { key: 'gone', reason: 'both_changed' },
        ],
      });
    }
  });

  it('bounds the listed documents and says when it cut them', async () => {
    const ns = 'cd/many';
    const keys = Array.from({ length: 105 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: '0' })),
    );
    await branchFrom(ns, 'main', 'side');
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: 'main' })),
    );
    await apply(
      ns,
      'side',
      keys.map((key) => ({ key, content: 'side' })),
    );
    const answer = await socket.send('POST', '/v1/merge', { scope: { namespace: ns }, from_branch: 'side' });
    expect(answer.status).toBe(409);
    const { conflicts, conflicts_truncated: truncated } = error(answer) as {
      conflicts: { key: string }[];
      conflicts_truncated: boolean;
    };
    expect(conflicts.map((conflict) => conflict.key)).toEqual(keys.slice(0, 100));
    expect(truncated).toBe(true);
  });

  it('names a revert conflict and the documents changed again', async () => {
    const ns = 'cd/revert';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const reverted = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    const head = await apply(ns, 'main', [{ key: 'a', content: '3' }]);
    const answer = await socket.send('POST', '/v1/revert', { scope: { namespace: ns }, revision_id: reverted });
    expect(answer.status).toBe(409);
    expect(error(answer)).toEqual(
      expect.objectContaining({
        message: expect.stringContaining(`"a" (changed again in revision ${head})`),
        reason: 'revert_conflict',
        head_revision: head,
        conflicts: [{ key: 'a', reason: 'changed_again' }],
      }),
    );
  });

  it('names a cherry-pick conflict, and a revision the branch already holds', async () => {
    const ns = 'cd/pick';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'side');
    const picked = await apply(ns, 'side', [{ key: 'a', content: 'side' }]);
    const head = await apply(ns, 'main', [{ key: 'a', content: 'main' }]);
    const answer = await socket.send('POST', '/v1/cherry-pick', { scope: { namespace: ns }, revision_id: picked });
    expect(answer.status).toBe(409);
    expect(error(answer)).toEqual(
      expect.objectContaining({
        reason: 'cherry_pick_conflict',
        head_revision: head,
        conflicts: [{ key: 'a', reason: 'differs' }],
      }),
    );
    const again = await socket.send('POST', '/v1/cherry-pick', { scope: { namespace: ns }, revision_id: head });
    expect(again.status).toBe(409);
    expect(error(again).reason).toBe('already_applied');
  });

  it('says head_moved for a stale expected_revision or expected_from_revision', async () => {
    const ns = 'cd/cas';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'side');
    const head = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    const stale = await socket.send('POST', '/v1/apply', {
      scope: { namespace: ns },
      documents: [{ key: 'a', content: 'x' }],
      expected_revision: first,
    });
    expect(stale.status).toBe(409);
    expect(error(stale)).toEqual(expect.objectContaining({ reason: 'head_moved', head_revision: head }));

    const from = await apply(ns, 'side', [{ key: 'b', content: '1' }]);
    const moved = await socket.send('POST', '/v1/merge', {
      scope: { namespace: ns },
      from_branch: 'side',
      expected_from_revision: from - 1,
    });
    expect(moved.status).toBe(409);
    expect(error(moved)).toEqual(expect.objectContaining({ reason: 'head_moved', from_head_revision: from }));
  });

  it('says exists for a taken name, with the checkpoint revision, and in_use for a branch others need', async () => {
    const ns = 'cd/names';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await branchFrom(ns, 'main', 'side');
    const taken = await socket.send('POST', '/v1/branches', { scope: { namespace: ns }, name: 'side' });
    expect(taken.status).toBe(409);
    expect(error(taken)).toEqual(expect.objectContaining({ reason: 'exists' }));
    const mark = { scope: { namespace: ns }, name: 'keep', revision_id: first, create_only: true };
    expect((await socket.send('POST', '/v1/checkpoints', mark)).status).toBe(200);
    await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    const again = await socket.send('POST', '/v1/checkpoints', mark);
    expect(again.status).toBe(409);
    expect(error(again)).toEqual(expect.objectContaining({ reason: 'exists', checkpoint_revision: first }));
    const held = await socket.send('DELETE', '/v1/branches', { namespace: ns, name: 'main' });
    expect(held.status).toBe(409);
    expect(error(held)).toEqual(expect.objectContaining({ reason: 'in_use' }));
  });
});
