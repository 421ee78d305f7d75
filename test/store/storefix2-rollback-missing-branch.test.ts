import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// A rollback names the branch whose history it goes back in: one never written (a typo) has none, so
// it is refused naming the namespace's branches instead of starting a branch and answering success.

describe('POST /v1/rollback onto a branch never written', () => {
  const socket = socketStore();
  const { apply } = branchWrites(socket);
  const branches = async (namespace: string) =>
    ((await socket.send('GET', `/v1/branches?namespace=${namespace}`)).body.branches as { name: string }[]).map(
      (branch) => branch.name,
    );

  it('is 404 naming the branches, and creates nothing', async () => {
    const ns = 'sf2/rollback-typo';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const checkpoint = await socket.send('POST', '/v1/checkpoints', { scope: { namespace: ns }, name: 'c1' });
    expect(checkpoint.status).toBe(200);
    await apply(ns, 'main', [{ key: 'a', content: '2' }]);

    for (const selector of [{ checkpoint_name: 'c1' }, {}]) {
      const answer = await socket.send('POST', '/v1/rollback', {
        scope: { namespace: ns, branch: 'mian' },
        ...selector,
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({
        type: 'not_found_error',
        message:
          'branch "mian" does not exist in namespace "sf2/rollback-typo", so it has no history to roll back; ' +
          'its branches are "main". Roll back a branch that exists, or restore to copy a state into a new branch',
      });
    }
    expect(await branches(ns)).toEqual(['main']);
  });

  it('still lets a restore start a branch from another one', async () => {
    const ns = 'sf2/restore-new';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const answer = await socket.send('POST', '/v1/restore', {
      scope: { namespace: ns, branch: 'copy' },
      from_branch: 'main',
    });
    expect(answer.status).toBe(200);
    expect(await branches(ns)).toEqual(['copy', 'main']);
  });
});
