import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// POST /v1/checkpoints with revision_id, expected_revision and create_only: several agents writing to
// one branch each mark the revision they wrote, and one agent's "release" is not moved by another's.

describe('a checkpoint of a chosen revision, guarded', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const write = async (namespace: string, branch: string, content: string): Promise<number> =>
    (
      await store.call('POST', '/v1/apply', {
        scope: { namespace, branch },
        documents: [{ key: 'state.json', content }],
      })
    ).json().revision;
  const stateAt = async (namespace: string, checkpoint: string) =>
    (
      await store.call(
        'GET',
        `/v1/state?namespace=${encodeURIComponent(namespace)}&checkpoint=${encodeURIComponent(checkpoint)}`,
      )
    ).json().objects;

  it('revision_id marks a revision of the branch, which keeps its state through gc', async () => {
    const namespace = 'cpt/agents';
    const mine = await write(namespace, 'main', '{"step":1}');
    for (let step = 2; step <= 15; step++) await write(namespace, 'main', `{"step":${step}}`);
    const marked = await store.call('POST', '/v1/checkpoints', {
      scope: { namespace, branch: 'main' },
      name: 'agent-a',
      revision_id: mine,
    });
    expect(marked.json()).toEqual({ name: 'agent-a', revision_id: mine });
    expect((await store.call('POST', '/v1/gc', { keep: 1 })).statusCode).toBe(200);
    expect(await stateAt(namespace, 'agent-a')).toEqual({ 'state.json': '{"step":1}' });
  });

  it('revision_id may be the base a branch was made from, and nothing outside its history', async () => {
    const namespace = 'cpt/branches';
    const base = await write(namespace, 'main', 'base');
    await store.call('POST', '/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
    const other = await write(namespace, 'main', 'main only');
    const atBase = await store.call('POST', '/v1/checkpoints', {
      scope: { namespace, branch: 'feature' },
      name: 'fork',
      revision_id: base,
    });
    expect(atBase.json()).toEqual({ name: 'fork', revision_id: base });
    expect(await stateAt(namespace, 'fork')).toEqual({ 'state.json': 'base' });
    const outside = await store.call('POST', '/v1/checkpoints', {
      scope: { namespace, branch: 'feature' },
      name: 'wrong',
      revision_id: other,
    });
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.message).toBe(
      `revision ${other} is not in the history of branch "feature" of namespace "cpt/branches"`,
    );
  });

  it('expected_revision refuses a checkpoint once another write moved the head', async () => {
    const namespace = 'cpt/cas';
    const seen = await write(namespace, 'main', 'a');
    const moved = await write(namespace, 'main', 'b');
    const refused = await store.call('POST', '/v1/checkpoints', {
      scope: { namespace, branch: 'main' },
      name: 'v1',
      expected_revision: seen,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      type: 'conflict_error',
      head_revision: moved,
      message: `branch "main" of namespace "cpt/cas" is at revision ${moved}, not the expected_revision ${seen}: another write came first; read the branch at revision ${moved} and retry with expected_revision ${moved}`,
    });
    const listed = await store.call('GET', `/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);
    expect(listed.json().checkpoints).toEqual([]);
    const taken = await store.call('POST', '/v1/checkpoints', {
      scope: { namespace, branch: 'main' },
      name: 'v1',
      expected_revision: moved,
    });
    expect(taken.json()).toEqual({ name: 'v1', revision_id: moved });
  });

  it('create_only refuses a name that exists, leaving it where it was with its description', async () => {
    const namespace = 'cpt/create-only';
    const first = await write(namespace, 'main', 'a');
    const scope = { namespace, branch: 'main' };
    await store.call('POST', '/v1/checkpoints', { scope, name: 'release', description: 'shipped', create_only: true });
    await write(namespace, 'main', 'b');
    const refused = await store.call('POST', '/v1/checkpoints', { scope, name: 'release', create_only: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      `checkpoint "release" already exists in namespace "cpt/create-only", at revision ${first}; send create_only false to move it (with a token not limited to branches), or choose another name`,
    );
    const listed = await store.call('GET', `/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);
    expect(listed.json().checkpoints).toEqual([
      expect.objectContaining({ name: 'release', revision_id: first, description: 'shipped' }),
    ]);
    const wrongType = await store.call('POST', '/v1/checkpoints', { scope, name: 'x', create_only: 'yes' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.message).toBe('create_only: must be true or false, got a string');
  });
});
