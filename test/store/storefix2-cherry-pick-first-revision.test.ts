import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// A branch's first revision copies the state it was made from: every document a `create` against the
// empty state, though relative to where the branch started it changed nothing. Cherry-picking it
// would create or conflict with every document, so it is refused, saying what it is.

describe('POST /v1/cherry-pick of a branch’s first revision', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const pick = (namespace: string, branch: string, revision: number, dryRun = false) =>
    socket.send('POST', '/v1/cherry-pick', {
      scope: { namespace, branch },
      revision_id: revision,
      ...(dryRun ? { dry_run: true } : {}),
    });
  const refusal = (ns: string, first: number, source: number) =>
    `revision ${first} is the first revision of branch "feature" of namespace "${ns}": its starting copy of ` +
    `main@${source}, which changes nothing; nothing was written. Cherry-pick the revisions of "feature" after ` +
    'it, or merge the branch';

  it('is 409 onto a branch that changed those documents since', async () => {
    const ns = 'sf2/pick-first';
    const source = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    const { head_revision: first } = await branchFrom(ns, 'main', 'feature', source);
    for (const dryRun of [true, false]) {
      const answer = await pick(ns, 'main', first, dryRun);
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ type: 'conflict_error', message: refusal(ns, first, source) });
    }
  });

  it('is 409 onto a branch without those documents, writing nothing', async () => {
    const ns = 'sf2/pick-first-other';
    const source = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const other = await apply(ns, 'other', [{ key: 'z', content: '1' }]);
    const { head_revision: first } = await branchFrom(ns, 'main', 'feature', source);
    const answer = await pick(ns, 'other', first);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      type: 'conflict_error',
      message: refusal(ns, first, source),
    });
    const state = await socket.send('GET', `/v1/state?namespace=${ns}&branch=other`);
    expect(state.body).toEqual({ revision: other, objects: { z: '1' } });
  });

  it('still picks the first revision of a branch a write started', async () => {
    const ns = 'sf2/pick-first-written';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const started = await apply(ns, 'other', [{ key: 'z', content: '1' }]);
    const answer = await pick(ns, 'main', started);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ noop: false, changes: [{ key: 'z', type: 'create' }] });
  });
});
