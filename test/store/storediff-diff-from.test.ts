import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore, type SocketStore } from './support/socket-store.js';

// A diff used to go from the scope's head only: "what changed since checkpoint v1" was answered
// backwards (head to v1), and two old revisions could not be compared at all. `from` selects the side
// a diff starts from.

type Change = { key: string; type: string; before?: string; after?: string };

/** The documents of `branch` at `revision` (0: head), read with GET /v1/state. */
async function stateAt(socket: SocketStore, namespace: string, branch: string, revision = 0) {
  const query = `namespace=${namespace}&branch=${branch}&revision=${revision}`;
  const answer = await socket.send('GET', `/v1/state?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.objects as Record<string, string>;
}

/** What turns `before` into `after`, as a diff lists it (keys in byte order; these tests use ASCII). */
function expectedChanges(before: Record<string, string>, after: Record<string, string>): Change[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key): Change[] => {
    if (!(key in before)) return [{ key, type: 'create', after: after[key] }];
    if (!(key in after)) return [{ key, type: 'delete', before: before[key] }];
    return before[key] === after[key] ? [] : [{ key, type: 'update', before: before[key], after: after[key] }];
  });
}

describe('POST /v1/diff with from', () => {
  const socket = socketStore();
  const writes = branchWrites(socket);
  const diff = (body: Record<string, unknown>) => socket.send('POST', '/v1/diff', body);

  it('answers what changed since a checkpoint, up to head or to another checkpoint', async () => {
    const ns = 'sd-since';
    const main = { namespace: ns, branch: 'main' };
    await writes.apply(ns, 'main', [
      { key: 'kept', content: 'k' },
      { key: 'old', content: 'o' },
      { key: 'edited', content: '1' },
    ]);
    expect((await socket.send('POST', '/v1/checkpoints', { scope: main, name: 'v1' })).status).toBe(200);
    await writes.apply(ns, 'main', [
      { key: 'old', delete: true },
      { key: 'edited', content: '2' },
      { key: 'new', content: 'n' },
    ]);
    expect((await socket.send('POST', '/v1/checkpoints', { scope: main, name: 'v2' })).status).toBe(200);
    await writes.apply(ns, 'main', [{ key: 'later', content: 'l' }]);

    const since = [
      { key: 'edited', type: 'update', before: '1', after: '2' },
      { key: 'later', type: 'create', after: 'l' },
      { key: 'new', type: 'create', after: 'n' },
      { key: 'old', type: 'delete', before: 'o' },
    ];
    expect(await diff({ scope: main, from: { checkpoint_name: 'v1' } })).toEqual({
      status: 200,
      body: { from_revision: 1, to_revision: 3, changes: since },
    });
    // Without `from` the answer is what it always was: head compared with v1, the other way round.
    expect((await diff({ scope: main, checkpoint_name: 'v1' })).body).toEqual({
      from_revision: 3,
      to_revision: 1,
      changes: [
        { key: 'edited', type: 'update', before: '2', after: '1' },
        { key: 'later', type: 'delete', before: 'l' },
        { key: 'new', type: 'delete', before: 'n' },
        { key: 'old', type: 'create', after: 'o' },
      ],
    });
    // Two revisions of which neither is a head.
    expect((await diff({ scope: main, checkpoint_name: 'v2', from: { checkpoint_name: 'v1' } })).body).toEqual({
      from_revision: 1,
      to_revision: 2,
      changes: since.filter((change) => change.key !== 'later'),
    });
    expect((await diff({ scope: main, revision_id: 1, from: { revision_id: 2 } })).body).toMatchObject({
      from_revision: 2,
      to_revision: 1,
      changes: [
        { key: 'edited', type: 'update', before: '2', after: '1' },
        { key: 'new', type: 'delete', before: 'n' },
        { key: 'old', type: 'create', after: 'o' },
      ],
    });
    // An empty `from` selects nothing, so it goes from head as before.
    expect((await diff({ scope: main, revision_id: 2, from: {} })).body).toEqual(
      (await diff({ scope: main, revision_id: 2 })).body,
    );
  });

  it('compares any two revisions of the namespace, whichever branch wrote the from side', async () => {
    const ns = 'sd-pairs';
    await writes.apply(ns, 'main', [
      { key: 'a', content: 'a1' },
      { key: 'b', content: 'b1' },
    ]);
    await writes.apply(ns, 'main', [{ key: 'c', content: 'c1' }]);
    await writes.branchFrom(ns, 'main', 'feature', 1);
    await writes.apply(ns, 'feature', [
      { key: 'a', content: 'a-feature' },
      { key: 'd', content: 'd1' },
    ]);
    await writes.apply(ns, 'main', [
      { key: 'b', delete: true },
      { key: 'a', content: 'a2' },
    ]);
    await writes.apply(ns, 'feature', [{ key: 'c', content: 'c-feature' }]);
    await writes.apply(ns, 'main', [{ key: 'e', content: 'e1' }]);
    const branchOf: Record<number, string> = { 1: 'main', 2: 'main', 3: 'feature', 4: 'feature', 5: 'main' };
    branchOf[6] = 'feature';
    branchOf[7] = 'main';
    const mainRevisions = [1, 2, 5, 7];

    for (const fromRevision of Object.keys(branchOf).map(Number)) {
      const before = await stateAt(socket, ns, branchOf[fromRevision], fromRevision);
      for (const toRevision of [0, ...mainRevisions]) {
        const after = await stateAt(socket, ns, 'main', toRevision);
        const body = {
          scope: { namespace: ns, branch: 'main' },
          revision_id: toRevision,
          from: { revision_id: fromRevision },
        };
        const answer = await diff(body);
        expect(answer.body, `from ${fromRevision} to ${toRevision}`).toEqual({
          from_revision: fromRevision,
          to_revision: toRevision || 7,
          changes: expectedChanges(before, after),
        });
      }
    }
    // Another branch's head: what turns feature's head into main's.
    const fromFeature = await diff({ scope: { namespace: ns, branch: 'main' }, from: { branch_name: 'feature' } });
    expect(fromFeature.body).toEqual({
      from_revision: 6,
      to_revision: 7,
      changes: expectedChanges(await stateAt(socket, ns, 'feature'), await stateAt(socket, ns, 'main')),
    });
  });

  it('refuses a from side that does not exist, naming it, and from with documents', async () => {
    const ns = 'sd-missing';
    const main = { namespace: ns, branch: 'main' };
    await writes.apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await writes.apply(ns, 'main', [{ key: 'a', content: '2' }]);
    await writes.apply(ns, 'main', [{ key: 'a', content: '3' }]);

    const never = await diff({ scope: main, from: { revision_id: 99 } });
    expect(never.status).toBe(404);
    expect(never.body).toMatchObject({ error: { message: 'revision 99 does not exist in namespace "sd-missing"' } });
    const checkpoint = await diff({ scope: main, from: { checkpoint_name: 'nope' } });
    expect(checkpoint.status).toBe(404);
    expect(checkpoint.body).toMatchObject({
      error: { message: 'checkpoint "nope" does not exist in namespace "sd-missing"' },
    });
    const branch = await diff({ scope: main, from: { branch_name: 'nope' } });
    expect(branch.status).toBe(404);
    expect(branch.body).toMatchObject({ error: { message: 'branch "nope" does not exist in namespace "sd-missing"' } });

    const withDocuments = await diff({
      scope: main,
      from: { revision_id: 1 },
      documents: [{ key: 'a', content: '4' }],
    });
    expect(withDocuments.status).toBe(400);
    expect(JSON.stringify(withDocuments.body)).toContain('from and documents cannot be used together');
    const unknown = await diff({ scope: main, from: { revision: 1 } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('from takes revision_id, checkpoint_name, branch_name');

    expect((await socket.send('POST', '/v1/gc', { keep: 1 })).status).toBe(200);
    const collected = await diff({ scope: main, from: { revision_id: 1 } });
    expect(collected.status).toBe(404);
    expect(collected.body).toMatchObject({
      error: {
        message:
          'revision 1 does not exist in namespace "sd-missing" (it was removed by garbage collection, or with the ' +
          'branch it was on)',
      },
    });
  });
});

describe('POST /v1/diff with from, past response_bytes', () => {
  const socket = socketStore({ limits: { response_bytes: 8 } });
  const writes = branchWrites(socket);

  it('lists keys and types only, each type going from the from side', async () => {
    const ns = 'sd-bound';
    const main = { namespace: ns, branch: 'main' };
    await writes.apply(ns, 'main', [{ key: 'gone', content: 'twelve bytes' }]);
    await writes.apply(ns, 'main', [
      { key: 'gone', delete: true },
      { key: 'added', content: 'twelve bytes' },
    ]);
    await writes.apply(ns, 'main', [{ key: 'later', content: 'x' }]);
    const keysOnly = [
      { key: 'added', type: 'create' },
      { key: 'gone', type: 'delete' },
    ];
    // To head (the SQL diff run the other way round) and between two older revisions (in memory).
    expect((await socket.send('POST', '/v1/diff', { scope: main, from: { revision_id: 1 } })).body).toEqual({
      from_revision: 1,
      to_revision: 3,
      changes: [...keysOnly, { key: 'later', type: 'create' }],
      contents_omitted: true,
    });
    expect(
      (await socket.send('POST', '/v1/diff', { scope: main, revision_id: 2, from: { revision_id: 1 } })).body,
    ).toEqual({ from_revision: 1, to_revision: 2, changes: keysOnly, contents_omitted: true });
  });
});
