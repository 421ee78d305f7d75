import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// A checkpoint taken where nothing was written points at revision 0, which belongs to no branch. A
// branch made from it must not claim to come from the scope's branch (which may not even exist).

describe('POST /v1/branches from a checkpoint of revision 0', () => {
  const socket = socketStore();

  it('titles the first revision after the checkpoint, not after a branch it never came from', async () => {
    const scope = { namespace: 'empty-cp', branch: 'scratch' };
    expect(await socket.send('POST', '/v1/checkpoints', { scope, name: 'blank' })).toEqual({
      status: 200,
      body: { name: 'blank', revision_id: 0 },
    });
    const created = await socket.send('POST', '/v1/branches', {
      scope: { namespace: 'empty-cp', branch: 'main' },
      name: 'fresh',
      from_checkpoint: 'blank',
    });
    expect(created).toEqual({ status: 200, body: { name: 'fresh', base_revision: 0, head_revision: 1 } });

    const message = 'branch from checkpoint "blank" (revision 0, no documents)';
    const log = await socket.send('GET', '/v1/log?namespace=empty-cp&branch=fresh');
    expect(log.body).toMatchObject({ entries: [{ id: 1, parent_id: 0, branch: 'fresh', message, changes: [] }] });
    expect((await socket.send('GET', '/v1/revisions/1?namespace=empty-cp')).body).toMatchObject({ message });
  });

  it('still names the source branch and revision for a checkpoint of a written revision', async () => {
    const scope = { namespace: 'written-cp', branch: 'main' };
    await socket.send('POST', '/v1/apply', { scope, documents: [{ key: 'a', content: '1' }] });
    await socket.send('POST', '/v1/checkpoints', { scope, name: 'one' });
    await socket.send('POST', '/v1/branches', {
      scope: { ...scope, branch: 'other' },
      name: 'b',
      from_checkpoint: 'one',
    });
    const log = await socket.send('GET', '/v1/log?namespace=written-cp&branch=b');
    expect(log.body).toMatchObject({ entries: [{ message: 'branch from main@1' }] });
  });
});
