import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore, type SocketAnswer } from './support/socket-store.js';

// DELETE /v1/branches with `require_merged_into`: an agent cleaning up after itself deletes its branch
// only once the named branch holds its work (`git branch -d`), so a merge that failed loses nothing.

describe('DELETE /v1/branches require_merged_into', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const remove = (namespace: string, name: string, body: Record<string, unknown> = {}) =>
    socket.send('DELETE', '/v1/branches', { namespace, name, ...body });
  const merge = (namespace: string, from: string, body: Record<string, unknown> = {}) =>
    socket.send('POST', '/v1/merge', { scope: { namespace }, from_branch: from, ...body });
  const exists = async (namespace: string, name: string) =>
    (await socket.send('GET', `/v1/log?namespace=${namespace}&branch=${name}`)).status === 200;
  const error = (answer: SocketAnswer) => answer.body.error as Record<string, unknown>;

  it('refuses a branch whose merge failed, deleting nothing, and deletes it once merged', async () => {
    const ns = 'bdg/fleet';
    await apply(ns, 'main', [{ key: 'cfg', content: '0' }]);
    // A branch with no revision of its own but its starting copy lacks nothing.
    await branchFrom(ns, 'main', 'idle');
    expect((await remove(ns, 'idle', { require_merged_into: 'main' })).status).toBe(200);
    await branchFrom(ns, 'main', 'agent-1');
    await apply(ns, 'main', [{ key: 'cfg', content: 'main' }]);
    await apply(ns, 'agent-1', [{ key: 'cfg', content: 'agent' }]);
    const head = await apply(ns, 'agent-1', [{ key: 'notes', content: 'work' }]);
    expect((await merge(ns, 'agent-1')).status).toBe(409);

    const refused = await remove(ns, 'agent-1', { require_merged_into: 'main' });
    expect(refused.status).toBe(409);
    expect(error(refused)).toEqual({
      type: 'conflict_error',
      message:
        `branch "agent-1" of namespace "bdg/fleet" (revision ${head}) is not merged into "main": 2 of its revisions ` +
        'are not in the history of "main", and 2 documents differ between their heads; nothing was deleted. ' +
        'Merge it into "main" first, or delete it without require_merged_into to discard them',
      code: 409,
      reason: 'not_merged',
      head_revision: head,
      unmerged_revisions: 2,
    });
    expect(await exists(ns, 'agent-1')).toBe(true);

    expect((await merge(ns, 'agent-1', { strategy: 'theirs' })).status).toBe(200);
    const deleted = await remove(ns, 'agent-1', { require_merged_into: 'main' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(expect.objectContaining({ name: 'agent-1', head_revision: head }));
    expect(await exists(ns, 'agent-1')).toBe(false);
  });

  it('counts only what the named branch lacks: a later write after a merge is unmerged again', async () => {
    const ns = 'bdg/later';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'agent');
    await apply(ns, 'agent', [{ key: 'a', content: '1' }]);
    expect((await merge(ns, 'agent')).status).toBe(200);
    await apply(ns, 'agent', [{ key: 'b', content: 'late' }]);
    const refused = await remove(ns, 'agent', { require_merged_into: 'main' });
    expect(refused.status).toBe(409);
    expect(error(refused)).toEqual(expect.objectContaining({ reason: 'not_merged', unmerged_revisions: 1 }));
    // Without the option, unmerged work is deleted as before.
    expect((await remove(ns, 'agent')).status).toBe(200);
    expect(await exists(ns, 'agent')).toBe(false);
  });

  it('refuses an unknown branch to be merged into (404) and the branch itself (400)', async () => {
    const ns = 'bdg/names';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'agent');
    await apply(ns, 'agent', [{ key: 'a', content: '1' }]);
    const unknown = await remove(ns, 'agent', { require_merged_into: 'mian' });
    expect(unknown.status).toBe(404);
    expect(error(unknown).message).toContain('branch "mian" does not exist');
    const itself = await remove(ns, 'agent', { require_merged_into: 'agent' });
    expect(itself.status).toBe(400);
    expect(error(itself).message).toContain('require_merged_into "agent"');
    const empty = await remove(ns, 'agent', { require_merged_into: '' });
    expect(empty.status).toBe(400);
    expect(error(empty).message).toContain('require_merged_into');
    expect(await exists(ns, 'agent')).toBe(true);
  });
});
