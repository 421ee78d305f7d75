import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// A merge is recorded as having taken the source's head, and later merge bases follow that record as
// Git follows a merge commit's second parent: merging main into a branch again and again, then the
// branch back, finds no conflict in documents that earlier merges already settled.

describe('POST /v1/merge over recorded merges', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const merge = (namespace: string, into: string, from: string) =>
    socket.send('POST', '/v1/merge', { scope: { namespace, branch: into }, from_branch: from });
  const objects = async (namespace: string, branch: string) =>
    (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}`)).body.objects as Record<
      string,
      string
    >;

  it('merges main into a branch twice, then the branch into main, without false conflicts', async () => {
    const ns = 'mr/twice';
    const fork = await apply(ns, 'main', [
      { key: 'shared', content: '0' },
      { key: 'config', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    const mainFirst = await apply(ns, 'main', [{ key: 'shared', content: 'main 1' }]);
    await apply(ns, 'feature', [{ key: 'config', content: 'feature 1' }]);
    const first = await merge(ns, 'feature', 'main');
    expect(first.body).toMatchObject({ noop: false, merge_base: fork, from_revision: mainFirst });

    // Both sides change documents the first merge settled: main the one it took, feature the one it kept.
    const mainSecond = await apply(ns, 'main', [{ key: 'shared', content: 'main 2' }]);
    await apply(ns, 'feature', [
      { key: 'config', content: 'feature 2' },
      { key: 'feature-only', content: 'f' },
    ]);
    const second = await merge(ns, 'feature', 'main');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      noop: false,
      merge_base: mainFirst,
      from_revision: mainSecond,
      changes: [{ key: 'shared', before: 'main 1', after: 'main 2' }],
    });

    // Feature changes what main gave it; main moves elsewhere; merging feature back is clean.
    await apply(ns, 'feature', [{ key: 'shared', content: 'feature 3' }]);
    await apply(ns, 'main', [{ key: 'main-only', content: 'm' }]);
    const back = await merge(ns, 'main', 'feature');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ noop: false, merge_base: mainSecond });
    expect(await objects(ns, 'main')).toEqual({
      shared: 'feature 3',
      config: 'feature 2',
      'feature-only': 'f',
      'main-only': 'm',
    });

    // And main into feature once more: main's merge of feature is the base, so only main's own change comes.
    const again = await merge(ns, 'feature', 'main');
    expect(again.body).toMatchObject({ noop: false, changes: [{ key: 'main-only', after: 'm' }] });
    expect(await objects(ns, 'feature')).toEqual(await objects(ns, 'main'));
  });

  /** Main and feature each merge a head of the other that does not reach the other's merge. */
  const crissCross = async (ns: string) => {
    await apply(ns, 'main', [
      { key: 'x', content: '0' },
      { key: 'y', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    const mainHead = await apply(ns, 'main', [{ key: 'x', content: 'm' }]);
    const featureHead = await apply(ns, 'feature', [{ key: 'y', content: 'f' }]);
    // A branch at main's head before main merges feature, merged into feature afterwards.
    await branchFrom(ns, 'main', 'snapshot');
    expect((await merge(ns, 'main', 'feature')).status).toBe(200);
    expect((await merge(ns, 'feature', 'snapshot')).status).toBe(200);
    return { mainHead, featureHead };
  };

  it('merges a criss-cross against every best common ancestor, the same way every time', async () => {
    const answers = [];
    for (const ns of ['mr/criss-1', 'mr/criss-2']) {
      const { mainHead, featureHead } = await crissCross(ns);
      await apply(ns, 'main', [{ key: 'z', content: 'main' }]);
      await apply(ns, 'feature', [{ key: 'w', content: 'feature' }]);
      const answer = await merge(ns, 'main', 'feature');
      // Neither merge reaches the other: both heads they took are best, and the newest is answered.
      expect(answer.body).toMatchObject({ noop: false, merge_base: Math.max(mainHead, featureHead) });
      expect(await objects(ns, 'main')).toEqual({ x: 'm', y: 'f', z: 'main', w: 'feature' });
      answers.push(answer.body);
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it('refuses a document the best common ancestors judge differently in a criss-cross', async () => {
    const ns = 'mr/criss-ambiguous';
    const { mainHead, featureHead } = await crissCross(ns);
    // Against main's merged head x is unchanged on feature; against feature's it changed on both.
    await apply(ns, 'main', [{ key: 'x', content: 'm2' }]);
    const answer = await merge(ns, 'main', 'feature');
    expect(answer.status).toBe(409);
    const text = (answer.body.error as { message: string }).message;
    expect(featureHead).toBeGreaterThan(mainHead);
    expect(text).toContain(`since their merge bases feature@${featureHead} and main@${mainHead}:`);
    expect(text).toContain('"x" (the merge bases disagree on which side changed it)');
    const log = await socket.send('GET', `/v1/log?namespace=${ns}&branch=main&limit=1`);
    expect((log.body.entries as { message: string }[])[0].message).not.toMatch(/^merge feature/);
  });

  it('still finds the merge base a merge recorded after gc prunes around it', async () => {
    const ns = 'mr/gc';
    await apply(ns, 'main', [{ key: 'doc', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    const taken = await apply(ns, 'main', [{ key: 'doc', content: 'main' }]);
    expect((await merge(ns, 'feature', 'main')).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      await apply(ns, 'main', [{ key: `m${i}`, content: 'm' }]);
      await apply(ns, 'feature', [{ key: `f${i}`, content: 'f' }]);
    }
    await apply(ns, 'feature', [{ key: 'doc', content: 'feature' }]);
    const gc = await socket.send('POST', '/v1/gc', { keep: 1, namespace: ns });
    expect(gc.status).toBe(200);
    expect(gc.body.pruned).toBeGreaterThan(0);
    const answer = await merge(ns, 'main', 'feature');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ merge_base: taken });
    expect((await objects(ns, 'main')).doc).toBe('feature');
  });

  it('forgets the merges of a deleted branch, so a new branch does not inherit them', async () => {
    const ns = 'mr/deleted';
    const start = await apply(ns, 'main', [{ key: 'doc', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'main', [{ key: 'doc', content: '1' }]);
    expect((await merge(ns, 'feature', 'main')).status).toBe(200);
    const deleted = await socket.send('DELETE', '/v1/branches', { namespace: ns, name: 'feature' });
    expect(deleted.status).toBe(200);
    // A new branch from main's first revision has not got main's change: merging main brings it.
    await branchFrom(ns, 'main', 'again', start);
    const answer = await merge(ns, 'again', 'main');
    expect(answer.body).toMatchObject({ noop: false, merge_base: start, changes: [{ key: 'doc', after: '1' }] });
  });
});
