import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// Two agents share a namespace's checkpoints: each deletes or moves one only while it still marks the
// revision that agent saw, so neither undoes the other's move without knowing.

describe('preconditions on a checkpoint itself', () => {
  const socket = socketStore();
  const namespace = 'cp-preconditions';
  const apply = async (content: string) => {
    const answer = await socket.send('POST', '/v1/apply', {
      scope: { namespace },
      documents: [{ key: 'plan.md', content }],
    });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  const mark = (name: string, body: Record<string, unknown> = {}) =>
    socket.send('POST', '/v1/checkpoints', { scope: { namespace }, name, ...body });
  const marked = async (name: string) => {
    const listed = await socket.send('GET', `/v1/checkpoints?namespace=${namespace}`);
    const all = listed.body.checkpoints as { name: string; revision_id: number }[];
    return all.find((checkpoint) => checkpoint.name === name)?.revision_id;
  };

  it('deletes a checkpoint with expected_revision only while it still marks that revision', async () => {
    const first = await apply('one');
    expect((await mark('latest')).status).toBe(200);
    // Another agent moves it meanwhile.
    const second = await apply('two');
    expect((await mark('latest')).status).toBe(200);

    const refused = await socket.send('DELETE', '/v1/checkpoints', {
      namespace,
      name: 'latest',
      expected_revision: first,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      type: 'conflict_error',
      code: 409,
      reason: 'checkpoint_moved',
      checkpoint_revision: second,
    });
    expect((refused.body.error as { message: string }).message).toBe(
      `checkpoint "latest" of namespace "${namespace}" marks revision ${second}, not the expected_revision ${first}: ` +
        `another writer moved it; decide again with it at revision ${second}, and retry with expected_revision ${second}`,
    );
    expect(await marked('latest')).toBe(second);

    const deleted = await socket.send('DELETE', '/v1/checkpoints', {
      namespace,
      name: 'latest',
      expected_revision: second,
    });
    expect(deleted).toEqual({ status: 200, body: {} });
    expect(await marked('latest')).toBeUndefined();
    // A name that is gone stays the 404 it always was, expected_revision or not.
    const gone = await socket.send('DELETE', '/v1/checkpoints', {
      namespace,
      name: 'latest',
      expected_revision: second,
    });
    expect(gone.status).toBe(404);
  });

  it('moves a checkpoint with expected_checkpoint_revision only while it still marks that revision', async () => {
    const first = await apply('three');
    expect((await mark('stable')).status).toBe(200);
    const second = await apply('four');
    expect((await mark('stable', { revision_id: first })).body).toEqual({ name: 'stable', revision_id: first });

    // An agent that saw `stable` at an older revision does not move it.
    const refused = await mark('stable', { expected_checkpoint_revision: second });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ reason: 'checkpoint_moved', checkpoint_revision: first });
    expect((refused.body.error as { message: string }).message).toContain(
      'not the expected_checkpoint_revision ' + second,
    );
    expect(await marked('stable')).toBe(first);

    expect(await mark('stable', { expected_checkpoint_revision: first })).toEqual({
      status: 200,
      body: { name: 'stable', revision_id: second },
    });
    expect(await marked('stable')).toBe(second);

    // One deleted meanwhile marks nothing: 409 too, rather than created again behind the writer's back.
    const missing = await mark('never-made', { expected_checkpoint_revision: first });
    expect(missing.status).toBe(409);
    expect(missing.body.error).toMatchObject({ reason: 'checkpoint_moved' });
    expect(missing.body.error).not.toHaveProperty('checkpoint_revision');
    expect(await marked('never-made')).toBeUndefined();
  });

  it('refuses expected_checkpoint_revision with create_only true, and values that are not revisions', async () => {
    const both = await mark('either', { create_only: true, expected_checkpoint_revision: 1 });
    expect(both.status).toBe(400);
    expect((both.body.error as { message: string }).message).toContain('expected_checkpoint_revision');
    const negative = await mark('either', { expected_checkpoint_revision: -1 });
    expect(negative.status).toBe(400);
    expect((negative.body.error as { message: string }).message).toContain(
      'expected_checkpoint_revision must not be negative',
    );
    const text = await socket.send('DELETE', '/v1/checkpoints', { namespace, name: 'either', expected_revision: 'x' });
    expect(text.status).toBe(400);
    expect((text.body.error as { message: string }).message).toContain('expected_revision must be an integer');
  });
});
