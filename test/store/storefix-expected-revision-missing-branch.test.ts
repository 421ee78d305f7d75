import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// A compare-and-swap write naming a branch that does not exist (a typo: `mainn`) was told "another
// write came first; retry with expected_revision 0", advice that creates the typo branch.

describe('expected_revision on a branch that does not exist', () => {
  const socket = socketStore();
  let writes = 0;
  const apply = (branch: string, expected?: number, namespace = 'team/app') =>
    socket.send('POST', '/v1/apply', {
      scope: { namespace, branch },
      documents: [{ key: 'a.txt', content: `write ${++writes}` }],
      ...(expected === undefined ? {} : { expected_revision: expected }),
    });
  const branchNames = async (namespace: string) =>
    ((await socket.send('GET', `/v1/branches?namespace=${namespace}`)).body.branches as { name: string }[]).map(
      (branch) => branch.name,
    );

  it('says the branch does not exist and names the namespace’s branches, still as the contract’s conflict', async () => {
    await apply('main');
    await apply('canary');
    const answer = await apply('mainn', 5);
    expect(answer).toEqual({
      status: 409,
      body: {
        error: {
          type: 'conflict_error',
          code: 409,
          reason: 'head_moved',
          head_revision: 0,
          message:
            'branch "mainn" does not exist in namespace "team/app", so it is not at the expected_revision 5; its ' +
            'branches are "main", "canary". To start this branch, write without expected_revision (or with expected_revision 0)',
        },
      },
    });
    expect(answer.body.error).not.toHaveProperty('message', expect.stringContaining('another write came first'));
    expect(await branchNames('team/app')).toEqual(['canary', 'main']);
  });

  it('says so in a namespace that has no branch yet', async () => {
    const answer = await apply('main', 3, 'team/empty');
    expect(answer.status).toBe(409);
    expect((answer.body.error as { message: string }).message).toBe(
      'branch "main" does not exist in namespace "team/empty", so it is not at the expected_revision 3; the namespace ' +
        'has no branches. To start this branch, write without expected_revision (or with expected_revision 0)',
    );
  });

  it('keeps the retry advice for a branch whose head moved', async () => {
    const first = (await apply('moved')).body.revision as number;
    await apply('moved');
    const answer = await apply('moved', first);
    expect((answer.body.error as { message: string }).message).toContain(
      `another write came first; read the branch at revision ${first + 1}`,
    );
  });
});
