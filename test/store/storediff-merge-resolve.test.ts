import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// A merge conflict could only be resolved by writing the content wanted to both branches. `strategy`
// and `resolve` pick a side per conflicting document, as `dolt conflicts resolve --ours/--theirs`.

describe('POST /v1/merge with strategy and resolve', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const merge = (namespace: string, body: Record<string, unknown>) =>
    socket.send('POST', '/v1/merge', { scope: { namespace, branch: 'main' }, from_branch: 'feature', ...body });
  const state = async (namespace: string, branch: string) =>
    (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}`)).body.objects;
  const log = async (namespace: string) =>
    (await socket.send('GET', `/v1/log?namespace=${namespace}&branch=main`)).body.entries as { message: string }[];
  const errorMessage = (answer: { body: Record<string, unknown> }) =>
    (answer.body.error as { message: string }).message;

  /**
   * `main` and `feature` made from `fork`, then both changed: `both` updated differently, `gone-here`
   * deleted on main and updated on feature, `gone-there` the other way round, `new` created differently,
   * and `clean` changed on feature only.
   */
  async function conflicting(ns: string) {
    const fork = await apply(ns, 'main', [
      { key: 'both', content: 'base' },
      { key: 'gone-here', content: 'base' },
      { key: 'gone-there', content: 'base' },
      { key: 'clean', content: 'base' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    const from = await apply(ns, 'feature', [
      { key: 'both', content: 'theirs' },
      { key: 'gone-here', content: 'theirs' },
      { key: 'gone-there', delete: true },
      { key: 'new', content: 'theirs' },
      { key: 'clean', content: 'theirs' },
    ]);
    const head = await apply(ns, 'main', [
      { key: 'both', content: 'ours' },
      { key: 'gone-here', delete: true },
      { key: 'gone-there', content: 'ours' },
      { key: 'new', content: 'ours' },
    ]);
    return { fork, from, head };
  }

  it('takes the source side of every conflict with strategy "theirs", previewed first, and records the merge', async () => {
    const ns = 'sd/theirs';
    const { fork, from, head } = await conflicting(ns);
    const changes = [
      { key: 'both', type: 'update', before: 'ours', after: 'theirs' },
      { key: 'clean', type: 'update', before: 'base', after: 'theirs' },
      { key: 'gone-here', type: 'create', after: 'theirs' },
      { key: 'gone-there', type: 'delete', before: 'ours' },
      { key: 'new', type: 'update', before: 'ours', after: 'theirs' },
    ];
    const resolved = ['both', 'gone-here', 'gone-there', 'new'].map((key) => ({ key, side: 'theirs' }));
    const preview = await merge(ns, { strategy: 'theirs', dry_run: true });
    expect(preview).toEqual({
      status: 200,
      body: { revision: head, noop: false, changes, merge_base: fork, from_revision: from, resolved, dry_run: true },
    });

    const answer = await merge(ns, { strategy: 'theirs', expected_revision: head, expected_from_revision: from });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      revision: head + 1,
      noop: false,
      changes,
      merge_base: fork,
      from_revision: from,
      resolved,
    });
    expect(await state(ns, 'main')).toEqual({ both: 'theirs', clean: 'theirs', 'gone-here': 'theirs', new: 'theirs' });
    expect((await log(ns))[0].message).toBe(
      `merge feature@${from} into main (merge base main@${fork}), resolving 4 conflicts: "both" (theirs), ` +
        '"gone-here" (theirs), "gone-there" (theirs), "new" (theirs)',
    );
    // The merge is recorded as any is: merging again finds main up to date, with no conflict.
    expect((await merge(ns, {})).body).toMatchObject({ noop: true, changes: [], merge_base: from });
  });

  it('keeps the target side with "ours", lets resolve override it per document, and still merges the rest', async () => {
    const ns = 'sd/mixed';
    const { from } = await conflicting(ns);
    const answer = await merge(ns, { strategy: 'ours', resolve: { 'gone-here': 'theirs', new: 'theirs' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      noop: false,
      changes: [
        { key: 'clean', type: 'update', before: 'base', after: 'theirs' },
        { key: 'gone-here', type: 'create', after: 'theirs' },
        { key: 'new', type: 'update', before: 'ours', after: 'theirs' },
      ],
      from_revision: from,
      resolved: [
        { key: 'both', side: 'ours' },
        { key: 'gone-here', side: 'theirs' },
        { key: 'gone-there', side: 'ours' },
        { key: 'new', side: 'theirs' },
      ],
    });
    expect(await state(ns, 'main')).toEqual({
      both: 'ours',
      clean: 'theirs',
      'gone-here': 'theirs',
      'gone-there': 'ours',
      new: 'theirs',
    });
  });

  it('refuses, naming only the conflicts left, when resolve covers some and no strategy the rest', async () => {
    const ns = 'sd/partial';
    const { fork } = await conflicting(ns);
    const before = await state(ns, 'main');
    const answer = await merge(ns, { resolve: { both: 'ours', new: 'theirs', 'gone-there': 'ours' } });
    expect(answer.status).toBe(409);
    expect(errorMessage(answer)).toBe(
      `branch "feature" (revision 3) cannot be merged into "main" of namespace "sd/partial": 1 document was changed ` +
        `on both since their merge base main@${fork}: "gone-here" ("main" deleted it, "feature" updated it); ` +
        'nothing was written. Make each of them the same on both branches (apply the content you want to both, or ' +
        "one branch's content to the other) and merge again",
    );
    expect(await state(ns, 'main')).toEqual(before);
  });

  it('refuses a resolve key that is not in conflict, naming it, even when there is nothing to merge', async () => {
    const ns = 'sd/stale';
    await conflicting(ns);
    const answer = await merge(ns, { strategy: 'ours', resolve: { both: 'ours', clean: 'theirs', typo: 'ours' } });
    expect(answer.status).toBe(400);
    expect(errorMessage(answer)).toBe(
      'resolve names 2 keys that are not in conflict: "clean", "typo"; the merge has 4 conflicts; preview it ' +
        '(dry_run) to see them, and resolve only those',
    );
    expect((await merge(ns, { strategy: 'ours' })).status).toBe(200);
    const upToDate = await merge(ns, { resolve: { both: 'theirs' } });
    expect(upToDate.status).toBe(400);
    expect(errorMessage(upToDate)).toBe(
      'resolve names 1 key that is not in conflict: "both"; the merge has no conflicts, and resolve only those',
    );
  });

  it('records the merge when every conflict keeps ours and the source brings nothing else, so it is not asked again', async () => {
    const ns = 'sd/ours-only';
    const fork = await apply(ns, 'main', [{ key: 'a', content: 'base' }]);
    await branchFrom(ns, 'main', 'feature');
    const from = await apply(ns, 'feature', [{ key: 'a', content: 'theirs' }]);
    const head = await apply(ns, 'main', [{ key: 'a', content: 'ours' }]);
    const answered = { changes: [], merge_base: fork, from_revision: from, resolved: [{ key: 'a', side: 'ours' }] };
    expect((await merge(ns, { strategy: 'ours', dry_run: true })).body).toEqual({
      revision: head,
      noop: false,
      ...answered,
      dry_run: true,
    });
    expect((await merge(ns, { strategy: 'ours' })).body).toEqual({ revision: head + 1, noop: false, ...answered });
    expect(await state(ns, 'main')).toEqual({ a: 'ours' });
    expect((await log(ns))[0].message).toBe(
      `merge feature@${from} into main (merge base main@${fork}), resolving 1 conflict: "a" (ours)`,
    );
    // As git after `merge -s ours`: main has feature's head, so merging it again is up to date, no conflict.
    const again = await merge(ns, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ revision: head + 1, noop: true, merge_base: from });
    // Only what feature writes after that merge is taken by the next one.
    const later = await apply(ns, 'feature', [{ key: 'b', content: 'later' }]);
    const next = await merge(ns, {});
    expect(next.body).toMatchObject({ noop: false, merge_base: from, from_revision: later });
    expect(await state(ns, 'main')).toEqual({ a: 'ours', b: 'later' });
  });

  it('refuses a strategy or a side it does not know', async () => {
    const strategy = await merge('sd/invalid', { strategy: 'mine' });
    expect(strategy.status).toBe(400);
    expect(errorMessage(strategy)).toContain('must be "ours" or "theirs", got "mine"');
    const side = await merge('sd/invalid', { resolve: { a: 'left' } });
    expect(side.status).toBe(400);
    expect(errorMessage(side)).toContain('must be an object of "ours" or "theirs" by document key');
  });
});
