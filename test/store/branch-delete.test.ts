import { describe, expect, it } from 'vitest';
import { RevisionEvents, type RevisionEvent } from '../../src/server/store/engine/revision-events.js';
import { ADMIN_TOKEN } from './app-helpers.js';
import { openTempEngine } from './helpers.js';
import { adminWriterTeamStore, TEAM_ADMIN, WRITER } from './support/socket-store.js';

// Writing to a branch that does not exist creates it, so a typo (`mian`) used to leave a branch behind
// for good. DELETE /v1/branches removes a branch with its history, over a real socket, and refuses
// what gc promises to keep: a checkpointed revision, or the base of another branch.

describe('DELETE /v1/branches', () => {
  const socket = adminWriterTeamStore();
  const call = (method: string, path: string, body?: unknown, token?: string) => socket.send(method, path, body, token);
  const apply = (namespace: string, branch: string, content: string, key = 'config.yaml') =>
    call('POST', '/v1/apply', { scope: { namespace, branch }, documents: [{ key, content }] });
  const remove = (body: Record<string, unknown>, token = ADMIN_TOKEN) => call('DELETE', '/v1/branches', body, token);
  const failure = (status: number, type: string, message: string, detail: object = {}) => ({
    status,
    body: { error: { type, message, code: status, ...detail } },
  });
  const contentStored = (content: string) =>
    socket.store.database.sqlite.prepare('SELECT count(*) FROM store_blobs WHERE content = ?').pluck().get(content);

  it('deletes a branch written by mistake with its history and contents, leaving the others intact', async () => {
    await apply('ops', 'main', 'replicas: 2');
    await apply('ops', 'main', 'replicas: 3');
    const typo = await apply('ops', 'mian', 'replicas: 30 (typo branch only)');
    await apply('ops', 'mian', 'replicas: 31 (typo branch only)');
    const typoFirst = typo.body.revision as number;

    expect(await remove({ namespace: 'ops', name: 'mian' })).toEqual({
      status: 200,
      body: { name: 'mian', head_revision: typoFirst + 1, pruned: 2 },
    });

    const branches = await call('GET', '/v1/branches?namespace=ops');
    expect((branches.body.branches as { name: string }[]).map((b) => b.name)).toEqual(['main']);
    expect((await call('GET', '/v1/state?namespace=ops&branch=mian')).body).toEqual({ revision: 0, objects: {} });
    expect((await call('GET', '/v1/log?namespace=ops&branch=mian')).status).toBe(404);
    expect(await call('GET', `/v1/revisions/${typoFirst}?namespace=ops`)).toEqual(
      failure(
        404,
        'not_found_error',
        `revision ${typoFirst} does not exist in namespace "ops" (it was removed by garbage collection, or with the branch it was on)`,
      ),
    );
    expect(contentStored('replicas: 30 (typo branch only)')).toBe(0);
    expect(contentStored('replicas: 31 (typo branch only)')).toBe(0);

    expect((await call('GET', '/v1/state?namespace=ops&branch=main')).body).toEqual({
      revision: 2,
      objects: { 'config.yaml': 'replicas: 3' },
    });
    expect((await call('GET', '/v1/state?namespace=ops&branch=main&revision=1')).body).toMatchObject({
      objects: { 'config.yaml': 'replicas: 2' },
    });
    // The namespace's head is the newest revision a branch stands on, not the deleted branch's.
    expect((await call('GET', '/v1/namespaces')).body.namespaces).toEqual([
      expect.objectContaining({ name: 'ops', branches: 1, revisions: 2, head_revision: 2 }),
    ]);
  });

  it('frees the name: writing to it again starts a new, empty branch', async () => {
    await apply('reuse', 'main', 'a');
    await apply('reuse', 'tmp', 'old');
    expect((await remove({ namespace: 'reuse', name: 'tmp' })).status).toBe(200);
    const again = await apply('reuse', 'tmp', 'new', 'other.txt');
    expect(again.body).toMatchObject({ noop: false, changes: [{ key: 'other.txt', type: 'create', after: 'new' }] });
    const log = await call('GET', '/v1/log?namespace=reuse&branch=tmp');
    expect(log.body.entries).toEqual([expect.objectContaining({ id: again.body.revision, parent_id: 0 })]);
  });

  it('takes a namespace made by a typo out of the listing once its last branch goes', async () => {
    await apply('tema/app', 'main', 'typo namespace');
    await apply('tema/app', 'dev', 'typo namespace');
    const listed = async () =>
      ((await call('GET', '/v1/namespaces?limit=1000')).body.namespaces as { name: string }[]).map((n) => n.name);
    expect(await listed()).toContain('tema/app');
    await remove({ namespace: 'tema/app', name: 'main' });
    expect(await listed()).toContain('tema/app');
    await remove({ namespace: 'tema/app', name: 'dev' });
    expect(await listed()).not.toContain('tema/app');
    // Its revision ids are never handed out again: a new write continues the count.
    expect((await apply('tema/app', 'main', 'back')).body.revision).toBe(3);
    expect(await listed()).toContain('tema/app');
  });

  it('answers 404 for a branch that does not exist', async () => {
    expect(await remove({ namespace: 'ops', name: 'nope' })).toEqual(
      failure(404, 'not_found_error', 'branch "nope" does not exist in namespace "ops"'),
    );
  });

  it('refuses while a checkpoint points into the branch, naming it', async () => {
    await apply('cp', 'main', '1');
    const kept = await apply('cp', 'feature', 'kept');
    await call('POST', '/v1/checkpoints', { scope: { namespace: 'cp', branch: 'feature' }, name: 'release' });
    await apply('cp', 'feature', 'later');
    expect(await remove({ namespace: 'cp', name: 'feature' })).toEqual(
      failure(
        409,
        'conflict_error',
        `branch "feature" of namespace "cp" holds revision ${kept.body.revision} of checkpoint "release": delete or move the checkpoint first`,
        { reason: 'in_use', head_revision: (kept.body.revision as number) + 1 },
      ),
    );
    expect((await call('GET', '/v1/state?namespace=cp&checkpoint=release')).body).toMatchObject({
      objects: { 'config.yaml': 'kept' },
    });
    expect((await call('DELETE', '/v1/checkpoints', { namespace: 'cp', name: 'release' })).status).toBe(200);
    expect(await remove({ namespace: 'cp', name: 'feature' })).toMatchObject({ status: 200, body: { pruned: 2 } });
  });

  it('refuses while another branch was created from it, naming that branch', async () => {
    await apply('tree', 'main', '1');
    const child = await call('POST', '/v1/branches', { scope: { namespace: 'tree', branch: 'main' }, name: 'child' });
    expect(await remove({ namespace: 'tree', name: 'main' })).toEqual(
      failure(
        409,
        'conflict_error',
        `branch "main" of namespace "tree" holds revision 1, the base of branch "child": delete that branch first`,
        { reason: 'in_use', head_revision: 1 },
      ),
    );
    expect(await remove({ namespace: 'tree', name: 'child' })).toEqual({
      status: 200,
      body: { name: 'child', head_revision: child.body.head_revision, pruned: 1 },
    });
    expect((await remove({ namespace: 'tree', name: 'main' })).status).toBe(200);
  });

  it('deletes only a branch still at expected_revision', async () => {
    const first = await apply('cas', 'tmp', '1');
    await apply('cas', 'tmp', '2');
    const head = (first.body.revision as number) + 1;
    const refused = failure(
      409,
      'conflict_error',
      `branch "tmp" of namespace "cas" is at revision ${head}, not the expected_revision ${first.body.revision}: another write came first; read the branch at revision ${head} and retry with expected_revision ${head}`,
    );
    expect(await remove({ namespace: 'cas', name: 'tmp', expected_revision: first.body.revision })).toEqual({
      ...refused,
      body: { error: { ...refused.body.error, reason: 'head_moved', head_revision: head } },
    });
    expect(await remove({ namespace: 'cas', name: 'tmp', expected_revision: head })).toMatchObject({ status: 200 });
  });

  it('needs the admin permission on the namespace, as gc does', async () => {
    await apply('team/app', 'scratch', 'x');
    await apply('other', 'scratch', 'x');
    expect(await remove({ namespace: 'team/app', name: 'scratch' }, WRITER)).toEqual(
      failure(403, 'permission_error', 'token "writer" lacks the admin permission'),
    );
    expect(await remove({ namespace: 'other', name: 'scratch' }, TEAM_ADMIN)).toEqual(
      failure(403, 'permission_error', 'token "team-admin" is not granted namespace "other"'),
    );
    expect((await remove({ namespace: 'team/app', name: 'scratch' }, TEAM_ADMIN)).status).toBe(200);
  });

  it('refuses a body that does not name a branch', async () => {
    expect(await remove({ namespace: 'ops' })).toEqual(failure(400, 'invalid_request_error', 'name: is required'));
    expect(await remove({ namespace: 'ops', name: 'main', scope: {} })).toEqual(
      failure(
        400,
        'invalid_request_error',
        'body: unknown field "scope"; this endpoint takes namespace, name, expected_revision, require_merged_into',
      ),
    );
  });

  it('leaves gc with nothing of the deleted branch to count or prune', async () => {
    for (let i = 0; i < 3; i++) await apply('gcd', 'main', `m${i}`);
    for (let i = 0; i < 3; i++) await apply('gcd', 'gone', `g${i}`);
    expect((await remove({ namespace: 'gcd', name: 'gone' })).body).toMatchObject({ pruned: 3 });
    const dry = await call('POST', '/v1/gc', { keep: 1, dry_run: true });
    const real = await call('POST', '/v1/gc', { keep: 1 });
    expect(real.body).toEqual(dry.body);
    expect((await call('GET', '/v1/state?namespace=gcd')).body).toEqual({
      revision: 3,
      objects: { 'config.yaml': 'm2' },
    });
  });
});

describe('deleting a followed branch', () => {
  it('tells followers (RAG collections) that the branch is now empty', async () => {
    const events = new RevisionEvents();
    const seen: RevisionEvent[] = [];
    events.subscribe((event) => seen.push(event));
    const temp = openTempEngine({ events });
    try {
      temp.engine.applyDocuments({ namespace: 'kb', branch: 'drafts' }, [{ key: 'faq.md', content: 'old answer' }]);
      temp.engine.deleteBranch({ namespace: 'kb', branch: 'drafts' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual([
        { namespace: 'kb', branch: 'drafts', revision: 1 },
        { namespace: 'kb', branch: 'drafts', revision: 0 },
      ]);
      expect(temp.engine.state({ namespace: 'kb', branch: 'drafts' })).toEqual({ revision: 0, objects: {} });
    } finally {
      temp.close();
    }
  });
});
