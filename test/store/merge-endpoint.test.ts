import { describe, expect, it } from 'vitest';
import { RevisionEvents, type RevisionEvent } from '../../src/server/store/engine/revision-events.js';
import { ADMIN_TOKEN } from './app-helpers.js';
import { docs, openTempEngine } from './helpers.js';
import { branchWrites, socketStore } from './support/socket-store.js';

// POST /v1/merge over a real socket: a three-way merge of another branch into the scope's branch,
// written as one ordinary revision.

const READER = 'st-merge-reader-0123456789abcdef';
const ELSEWHERE = 'st-merge-elsewhere-0123456789abcdef';

describe('POST /v1/merge', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
      { name: 'elsewhere', token: ELSEWHERE, verbs: ['read', 'write'], namespaces: ['other/*'] },
    ],
  });
  const { apply, branchFrom } = branchWrites(socket);
  const merge = (namespace: string, into: string, body: Record<string, unknown>, token?: string) =>
    socket.send('POST', '/v1/merge', { scope: { namespace, branch: into }, ...body }, token);
  const state = async (namespace: string, branch: string) =>
    (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}`)).body as {
      revision: number;
      objects: Record<string, string>;
    };
  const log = async (namespace: string, branch: string) =>
    (await socket.send('GET', `/v1/log?namespace=${namespace}&branch=${branch}`)).body.entries as {
      id: number;
      parent_id: number;
      message: string;
    }[];
  const message = (answer: { body: Record<string, unknown> }) => (answer.body.error as { message: string }).message;

  it('takes every change of a branch the target has not moved since (fast-forward-like)', async () => {
    const ns = 'mg/ff';
    const fork = await apply(ns, 'main', [
      { key: 'a', content: '1' },
      { key: 'gone', content: 'x' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    const head = await apply(ns, 'feature', [
      { key: 'a', content: '2' },
      { key: 'b', content: 'new' },
      { key: 'gone', delete: true },
    ]);
    const answer = await merge(ns, 'main', { from_branch: 'feature' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      revision: head + 1,
      noop: false,
      changes: [
        { key: 'a', type: 'update', before: '1', after: '2' },
        { key: 'b', type: 'create', after: 'new' },
        { key: 'gone', type: 'delete', before: 'x' },
      ],
      merge_base: fork,
      from_revision: head,
    });
    expect((await state(ns, 'main')).objects).toEqual((await state(ns, 'feature')).objects);
    // One ordinary revision: its parent is main's previous head, history stays linear.
    const [entry] = await log(ns, 'main');
    expect(entry).toEqual(
      expect.objectContaining({
        id: head + 1,
        parent_id: fork,
        message: `merge feature@${head} into main (merge base main@${fork})`,
      }),
    );
  });

  it('merges changes of both sides to different documents, and keeps what both changed alike', async () => {
    const ns = 'mg/clean';
    const fork = await apply(ns, 'main', [
      { key: 'mine', content: '0' },
      { key: 'theirs', content: '0' },
      { key: 'same', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [
      { key: 'theirs', content: 'feature' },
      { key: 'same', content: 'both' },
      { key: 'added', content: 'feature' },
    ]);
    await apply(ns, 'main', [
      { key: 'mine', content: 'main' },
      { key: 'same', content: 'both' },
    ]);
    const answer = await merge(ns, 'main', { from_branch: 'feature', message: 'bring in feature' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      noop: false,
      merge_base: fork,
      changes: [
        { key: 'added', type: 'create', after: 'feature' },
        { key: 'theirs', type: 'update', before: '0', after: 'feature' },
      ],
    });
    expect((await state(ns, 'main')).objects).toEqual({
      added: 'feature',
      mine: 'main',
      same: 'both',
      theirs: 'feature',
    });
    expect((await log(ns, 'main'))[0].message).toBe('bring in feature');
  });

  it('merges the other way, main into a branch made from it', async () => {
    const ns = 'mg/down';
    const fork = await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'f', content: '1' }]);
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const answer = await merge(ns, 'feature', { from_branch: 'main' });
    expect(answer.body).toMatchObject({ noop: false, merge_base: fork, changes: [{ key: 'a', type: 'update' }] });
    expect((await state(ns, 'feature')).objects).toEqual({ a: '1', f: '1' });
  });

  it('refuses conflicts with 409 naming each document and what each side did, writing nothing', async () => {
    const ns = 'mg/conflict';
    const fork = await apply(ns, 'main', [
      { key: 'both', content: '0' },
      { key: 'deleted-here', content: '0' },
      { key: 'deleted-there', content: '0' },
      { key: 'clean', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [
      { key: 'both', content: 'feature' },
      { key: 'deleted-here', content: 'feature' },
      { key: 'deleted-there', delete: true },
      { key: 'clean', content: 'feature' },
      { key: 'new', content: 'feature' },
    ]);
    await apply(ns, 'main', [
      { key: 'both', content: 'main' },
      { key: 'deleted-here', delete: true },
      { key: 'deleted-there', content: 'main' },
      { key: 'new', content: 'main' },
    ]);
    const before = await state(ns, 'main');
    const answer = await merge(ns, 'main', { from_branch: 'feature' });
    expect(answer.status).toBe(409);
    expect((answer.body.error as { type: string }).type).toBe('conflict_error');
    expect(message(answer)).toBe(
      `branch "feature" (revision 3) cannot be merged into "main" of namespace "mg/conflict": 4 documents were ` +
        `changed on both since their merge base main@${fork}: "both" (both updated it, differently), ` +
        '"deleted-here" ("main" deleted it, "feature" updated it), "deleted-there" ("main" updated it, "feature" ' +
        'deleted it), "new" (both created it, differently); nothing was written. Make each of them the same on both ' +
        "branches (apply the content you want to both, or one branch's content to the other) and merge again",
    );
    expect(await state(ns, 'main')).toEqual(before);

    // Resolved by making them equal on both sides, the merge goes through and takes the clean change.
    await apply(ns, 'main', [
      { key: 'both', content: 'feature' },
      { key: 'deleted-here', content: 'feature' },
      { key: 'deleted-there', delete: true },
      { key: 'new', content: 'feature' },
    ]);
    const resolved = await merge(ns, 'main', { from_branch: 'feature' });
    expect(resolved.body).toMatchObject({ noop: false, changes: [{ key: 'clean', type: 'update', after: 'feature' }] });
  });

  it('names a bounded number of conflicts, then how many more', async () => {
    const ns = 'mg/many';
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: '0' })),
    );
    await branchFrom(ns, 'main', 'feature');
    await apply(
      ns,
      'feature',
      keys.map((key) => ({ key, content: 'f' })),
    );
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: 'm' })),
    );
    const text = message(await merge(ns, 'main', { from_branch: 'feature' }));
    expect(text).toContain('30 documents were changed on both');
    expect(text).toContain('"k09" (both updated it, differently) and 20 more;');
    expect(text).not.toContain('k10');
  });

  it('is a no-op when already up to date', async () => {
    const ns = 'mg/noop';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    // The source has not moved since the fork.
    const ahead = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    expect((await merge(ns, 'feature', { from_branch: 'main' })).status).toBe(200);
    const created = await branchFrom(ns, 'main', 'fresh');
    const untouched = await merge(ns, 'main', { from_branch: 'fresh' });
    expect(untouched.body).toEqual({
      revision: ahead,
      noop: true,
      changes: [],
      merge_base: ahead,
      from_revision: created.head_revision,
    });
    // Merged once, merging again changes nothing: the head it took is the merge base now.
    const featureHead = await apply(ns, 'feature', [{ key: 'b', content: '1' }]);
    const merged = await merge(ns, 'main', { from_branch: 'feature' });
    // Main merged into feature counts: main's head it took is the merge base, not the fork.
    expect(merged.body).toMatchObject({ noop: false, merge_base: ahead });
    const again = await merge(ns, 'main', { from_branch: 'feature' });
    expect(again.body).toMatchObject({
      revision: merged.body.revision,
      noop: true,
      changes: [],
      merge_base: featureHead,
    });
  });

  it('merges again over the head it last took: a document merged and changed again on the source is taken', async () => {
    const ns = 'mg/again';
    const fork = await apply(ns, 'main', [
      { key: 'x', content: '0' },
      { key: 'y', content: '0' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    const taken = await apply(ns, 'feature', [{ key: 'x', content: 'f1' }]);
    expect((await merge(ns, 'main', { from_branch: 'feature' })).body).toMatchObject({ noop: false, merge_base: fork });
    await apply(ns, 'feature', [
      { key: 'x', content: 'f2' },
      { key: 'y', content: 'f' },
    ]);
    const answer = await merge(ns, 'main', { from_branch: 'feature' });
    expect(answer.body).toMatchObject({
      noop: false,
      merge_base: taken,
      changes: [
        { key: 'x', before: 'f1', after: 'f2' },
        { key: 'y', after: 'f' },
      ],
    });
  });

  it('finds the merge base through a branch made from a branch', async () => {
    const ns = 'mg/nested';
    const fork = await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'f', content: '1' }]);
    await branchFrom(ns, 'feature', 'topic');
    await apply(ns, 'topic', [{ key: 't', content: '1' }]);
    await apply(ns, 'main', [{ key: 'm', content: '1' }]);
    const answer = await merge(ns, 'main', { from_branch: 'topic' });
    expect(answer.body).toMatchObject({ noop: false, merge_base: fork });
    expect((await state(ns, 'main')).objects).toEqual({ a: '0', f: '1', m: '1', t: '1' });
  });

  it('merges branches with no common revision against the empty state', async () => {
    const ns = 'mg/unrelated';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await apply(ns, 'other', [
      { key: 'a', content: '1' },
      { key: 'b', content: '2' },
    ]);
    const answer = await merge(ns, 'main', { from_branch: 'other' });
    expect(answer.body).toMatchObject({ noop: false, merge_base: 0, changes: [{ key: 'b', type: 'create' }] });
    expect((await log(ns, 'main'))[0].message).toBe('merge other@2 into main (no common revision)');
  });

  it('names the field or branch of a bad request', async () => {
    const ns = 'mg/bad';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const missing = await socket.send('POST', '/v1/merge', { scope: { namespace: ns } });
    expect(missing.status).toBe(400);
    expect(message(missing)).toContain('from_branch');
    const itself = await merge(ns, 'main', { from_branch: 'main' });
    expect(itself.status).toBe(400);
    expect(message(itself)).toBe(
      'from_branch "main" is the branch merged into: name another branch of namespace "mg/bad"',
    );
    const badName = await merge(ns, 'main', { from_branch: 'a b' });
    expect(badName.status).toBe(400);
    expect(message(badName)).toContain('from_branch');
    const unknown = await merge(ns, 'main', { from_branch: 'featur' });
    expect(unknown.status).toBe(404);
    expect(message(unknown)).toBe('branch "featur" does not exist in namespace "mg/bad"');
    const noTarget = await merge(ns, 'mian', { from_branch: 'main' });
    expect(noTarget.status).toBe(404);
    expect(message(noTarget)).toContain('branch "mian" does not exist in namespace "mg/bad"');
    expect(message(noTarget)).toContain('its branches are "main"');
  });

  it('takes expected_revision: 409 with the head when the branch has moved', async () => {
    const ns = 'mg/cas';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'a', content: '1' }]);
    const moved = await merge(ns, 'main', { from_branch: 'feature', expected_revision: 7 });
    expect(moved.status).toBe(409);
    expect((moved.body.error as { head_revision: number }).head_revision).toBe(1);
    expect((await merge(ns, 'main', { from_branch: 'feature', expected_revision: 1 })).status).toBe(200);
  });

  it('takes expected_from_revision: 409 naming the source head when the source moved since it was read', async () => {
    const ns = 'mg/cas-source';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    const previewed = await apply(ns, 'feature', [{ key: 'a', content: '1' }]);
    const later = await apply(ns, 'feature', [{ key: 'b', content: 'unseen' }]);
    const moved = await merge(ns, 'main', { from_branch: 'feature', expected_from_revision: previewed });
    expect(moved.status).toBe(409);
    expect(message(moved)).toBe(
      `branch "feature" is at revision ${later}, not the expected_from_revision ${previewed}: it moved since it was read; read it again and retry with expected_from_revision ${later}`,
    );
    expect((await state(ns, 'main')).objects).toEqual({ a: '0' });
    const merged = await merge(ns, 'main', { from_branch: 'feature', expected_from_revision: later });
    expect(merged.status).toBe(200);
    expect(merged.body.from_revision).toBe(later);
  });

  it('needs write on the namespace: a read-only token and one for other namespaces are refused', async () => {
    const ns = 'mg/auth';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'a', content: '1' }]);
    const reader = await merge(ns, 'main', { from_branch: 'feature' }, READER);
    expect(reader.status).toBe(403);
    expect(message(reader)).toBe('token "reader" lacks the write permission');
    const elsewhere = await merge(ns, 'main', { from_branch: 'feature' }, ELSEWHERE);
    expect(elsewhere.status).toBe(403);
    expect(message(elsewhere)).toBe('token "elsewhere" is not granted namespace "mg/auth"');
    expect((await state(ns, 'main')).objects).toEqual({ a: '0' });
  });

  it('replays its answer to a retry with the same Idempotency-Key, merging once', async () => {
    const ns = 'mg/idem';
    await apply(ns, 'main', [{ key: 'a', content: '0' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'a', content: '1' }]);
    const send = (key: string) =>
      fetch(`${socket.base}/v1/merge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ scope: { namespace: ns }, from_branch: 'feature' }),
      });
    const first = await send('merge-1');
    const firstBody = (await first.json()) as { noop: boolean };
    expect(firstBody.noop).toBe(false);
    const retry = await send('merge-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(firstBody);
    expect(await log(ns, 'main')).toHaveLength(2);
  });

  it('merges a namespace of 10,000 documents, half changed on each side', async () => {
    const ns = 'mg/large';
    const keys = Array.from({ length: 10_000 }, (_, i) => `doc/${String(i).padStart(5, '0')}`);
    await apply(
      ns,
      'main',
      keys.map((key) => ({ key, content: `v0 ${key}` })),
    );
    await branchFrom(ns, 'main', 'feature');
    await apply(
      ns,
      'feature',
      keys.filter((_, i) => i % 2 === 0).map((key) => ({ key, content: `feature ${key}` })),
    );
    await apply(
      ns,
      'main',
      keys.filter((_, i) => i % 2 === 1).map((key) => ({ key, content: `main ${key}` })),
    );
    const answer = await merge(ns, 'main', { from_branch: 'feature' });
    expect(answer.status).toBe(200);
    expect((answer.body.changes as unknown[]).length).toBe(5_000);
    const objects = (await state(ns, 'main')).objects;
    expect(objects['doc/00000']).toBe('feature doc/00000');
    expect(objects['doc/00001']).toBe('main doc/00001');
  });

  it('counts in the operation metrics', async () => {
    const metrics = await fetch(`${socket.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    expect(text).toMatch(/svc_operations_total\{operation="merge",result="success"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="merge",result="noop"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="merge",result="error"\} \d+/);
    expect(text).toMatch(/svc_changed_documents_total\{operation="merge"\} \d+/);
  });
});

describe('merge and revert revision events', () => {
  it('tell followers about the revision a merge or revert wrote, and nothing for a no-op', async () => {
    const events = new RevisionEvents();
    const seen: RevisionEvent[] = [];
    events.subscribe((event) => seen.push(event));
    const temp = openTempEngine({ events });
    try {
      const { engine } = temp;
      engine.applyDocuments({ namespace: 'ev' }, docs({ a: '0' }));
      engine.createBranch({ namespace: 'ev' }, 'feature');
      engine.applyDocuments({ namespace: 'ev', branch: 'feature' }, docs({ a: '1' }));
      const merged = engine.merge({ namespace: 'ev' }, { fromBranch: 'feature' });
      engine.merge({ namespace: 'ev' }, { fromBranch: 'feature' });
      const reverted = engine.revert({ namespace: 'ev' }, { revision: merged.revision });
      engine.revert({ namespace: 'ev' }, { revision: merged.revision });
      await new Promise((resolve) => setImmediate(resolve));
      const onMain = seen.filter((event) => event.branch === 'main').map((event) => event.revision);
      expect(onMain).toEqual([1, merged.revision, reverted.revision]);
    } finally {
      temp.close();
    }
  });
});
