import { describe, expect, it } from 'vitest';
import { RevisionEvents, type RevisionEvent } from '../../src/server/store/engine/revision-events.js';
import { ADMIN_TOKEN } from './app-helpers.js';
import { docs, openTempEngine } from './helpers.js';
import { adminWriterTeamStore, TEAM_ADMIN, WRITER } from './support/socket-store.js';

// POST /v1/branches/rename, as `git branch -m` / `dolt branch -m`, over a real socket: the branch keeps
// its history, checkpoints, merge records and the bases of branches made from it under the new name.

describe('POST /v1/branches/rename', () => {
  const socket = adminWriterTeamStore();
  const call = (method: string, path: string, body?: unknown, token?: string) => socket.send(method, path, body, token);
  const apply = async (namespace: string, branch: string, documents: Record<string, string>) => {
    const answer = await call('POST', '/v1/apply', {
      scope: { namespace, branch },
      documents: Object.entries(documents).map(([key, content]) => ({ key, content })),
    });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  const rename = (body: Record<string, unknown>, token = ADMIN_TOKEN) =>
    call('POST', '/v1/branches/rename', body, token);
  const failure = (status: number, type: string, message: string, detail: object = {}) => ({
    status,
    body: { error: { type, message, code: status, ...detail } },
  });

  it('keeps history, checkpoints, merge records and branch bases under the new name', async () => {
    await apply('app', 'main', { 'a.md': 'a1', 'b.md': 'b1' });
    const made = await call('POST', '/v1/branches', { scope: { namespace: 'app', branch: 'main' }, name: 'feature' });
    const first = await apply('app', 'feature', { 'a.md': 'a2' });
    await call('POST', '/v1/checkpoints', { scope: { namespace: 'app', branch: 'feature' }, name: 'reviewed' });
    const child = await call('POST', '/v1/branches', { scope: { namespace: 'app', branch: 'feature' }, name: 'child' });
    const merged = await call('POST', '/v1/merge', {
      scope: { namespace: 'app', branch: 'main' },
      from_branch: 'feature',
    });
    expect(merged.status).toBe(200);
    const before = (await call('GET', '/v1/log?namespace=app&branch=feature')).body;

    expect(await rename({ namespace: 'app', name: 'feature', new_name: 'feature/login' })).toEqual({
      status: 200,
      body: {
        name: 'feature/login',
        previous_name: 'feature',
        base_revision: made.body.base_revision,
        head_revision: first,
      },
    });

    const listed = (await call('GET', '/v1/branches?namespace=app')).body.branches as { name: string }[];
    expect(listed.map((branch) => branch.name)).toEqual(['child', 'feature/login', 'main']);
    const after = (await call('GET', '/v1/log?namespace=app&branch=feature/login')).body;
    const renamedEntries = (before.entries as { branch: string }[]).map((entry) => ({
      ...entry,
      branch: 'feature/login',
    }));
    expect(after).toEqual({ ...before, entries: renamedEntries });
    expect((await call('GET', '/v1/log?namespace=app&branch=feature')).status).toBe(404);

    // The checkpoint points at the same revision, now on the renamed branch.
    const checkpoints = (await call('GET', '/v1/checkpoints?namespace=app')).body.checkpoints;
    expect(checkpoints).toEqual([
      expect.objectContaining({ name: 'reviewed', revision_id: first, branch: 'feature/login' }),
    ]);
    expect((await call('GET', '/v1/state?namespace=app&checkpoint=reviewed')).body).toEqual({
      revision: first,
      objects: { 'a.md': 'a2', 'b.md': 'b1' },
    });
    // The child's base is a revision of the renamed branch: still readable, still protected.
    const childBase = child.body.base_revision as number;
    expect((await call('GET', `/v1/state?namespace=app&branch=child&revision=${childBase}`)).status).toBe(200);
    expect((await call('DELETE', '/v1/branches', { namespace: 'app', name: 'feature/login' })).body).toMatchObject({
      error: {
        code: 409,
        message: expect.stringMatching(/^branch "feature\/login" of namespace "app" holds revision/),
      },
    });
    // The merge record counts: merging again takes only what the branch changed since.
    await apply('app', 'feature/login', { 'b.md': 'b2' });
    await apply('app', 'main', { 'a.md': 'main edit' });
    const again = await call('POST', '/v1/merge', {
      scope: { namespace: 'app', branch: 'main' },
      from_branch: 'feature/login',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      merge_base: first,
      changes: [{ key: 'b.md', type: 'update', before: 'b1', after: 'b2' }],
    });
    // The old name is free: writing to it starts a new, empty branch.
    const fresh = await apply('app', 'feature', { 'c.md': 'c' });
    expect((await call('GET', '/v1/log?namespace=app&branch=feature')).body).toMatchObject({
      entries: [{ id: fresh, parent_id: 0 }],
      total: 1,
    });
  });

  it('refuses an existing new_name (409), an unknown branch (404) and main (400), naming them', async () => {
    await apply('refuse', 'main', { a: '1' });
    await apply('refuse', 'dev', { a: '2' });
    await apply('refuse', 'qa', { a: '3' });
    expect(await rename({ namespace: 'refuse', name: 'dev', new_name: 'qa' })).toEqual(
      failure(
        409,
        'conflict_error',
        'new_name "qa" is taken: branch "qa" already exists in namespace "refuse"; delete it first (DELETE ' +
          '/v1/branches) or choose another name',
        { reason: 'exists' },
      ),
    );
    expect(await rename({ namespace: 'refuse', name: 'dve', new_name: 'next' })).toEqual(
      failure(
        404,
        'not_found_error',
        'branch "dve" does not exist in namespace "refuse", so there is nothing to rename; its branches are "main", ' +
          '"dev", "qa". Check the name: GET /v1/branches lists them all',
      ),
    );
    expect((await rename({ namespace: 'nowhere', name: 'dev', new_name: 'next' })).body).toMatchObject({
      error: { code: 404, message: expect.stringContaining('it has no branches') },
    });
    const main = await rename({ namespace: 'refuse', name: 'main', new_name: 'trunk' });
    expect(main.status).toBe(400);
    expect((main.body.error as { message: string }).message).toMatch(
      /^name "main" is the default branch \(an empty branch means "main"\), so it is not renamed/,
    );
    expect((await rename({ namespace: 'refuse', name: 'dev', new_name: 'bad name' })).body).toMatchObject({
      error: { code: 400, message: expect.stringMatching(/^new_name: must contain only letters/) },
    });
    expect((await rename({ namespace: 'refuse', name: 'dev', new_name: '' })).body).toMatchObject({
      error: { code: 400, message: 'new_name: must not be empty' },
    });
    expect((await rename({ namespace: 'refuse', name: 'dev' })).status).toBe(400);
    // Nothing moved.
    const names = ((await call('GET', '/v1/branches?namespace=refuse')).body.branches as { name: string }[]).map(
      (branch) => branch.name,
    );
    expect(names).toEqual(['dev', 'main', 'qa']);
    // A branch may take the name main where there is none (as after main was deleted).
    await apply('promote', 'dev', { a: '1' });
    expect(await rename({ namespace: 'promote', name: 'dev', new_name: 'main' })).toMatchObject({
      status: 200,
      body: { name: 'main', previous_name: 'dev' },
    });
    expect((await call('GET', '/v1/state?namespace=promote')).body).toEqual({ revision: 1, objects: { a: '1' } });
  });

  it('checks expected_revision against the head', async () => {
    const head = await apply('cas', 'dev', { a: '1' });
    expect(
      await rename({ namespace: 'cas', name: 'dev', new_name: 'next', expected_revision: head + 5 }),
    ).toMatchObject({ status: 409, body: { error: { type: 'conflict_error', head_revision: head } } });
    expect(await rename({ namespace: 'cas', name: 'dev', new_name: 'next', expected_revision: head })).toMatchObject({
      status: 200,
    });
  });

  it('needs admin on the namespace, as deleting a branch does', async () => {
    await apply('team/x', 'dev', { a: '1' });
    await apply('other', 'dev', { a: '1' });
    expect(await rename({ namespace: 'team/x', name: 'dev', new_name: 'next' }, WRITER)).toEqual(
      failure(403, 'permission_error', 'token "writer" lacks the admin permission'),
    );
    expect(await rename({ namespace: 'other', name: 'dev', new_name: 'next' }, TEAM_ADMIN)).toEqual(
      failure(403, 'permission_error', 'token "team-admin" is not granted namespace "other"'),
    );
    expect((await rename({ namespace: 'team/x', name: 'dev', new_name: 'next' }, TEAM_ADMIN)).status).toBe(200);
  });

  it('answers a retry with the same Idempotency-Key from the first answer, and counts in the metrics', async () => {
    await apply('retry', 'dev', { a: '1' });
    const send = () =>
      fetch(`${socket.base}/v1/branches/rename`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': 'rename-dev-once',
        },
        body: JSON.stringify({ namespace: 'retry', name: 'dev', new_name: 'next' }),
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());

    const metrics = await fetch(`${socket.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    expect(text).toMatch(/svc_operations_total\{operation="branch_rename",result="success"\} \d+/);
    expect(text).toMatch(/svc_operations_total\{operation="branch_rename",result="error"\} \d+/);
  });
});

describe('branch rename revision events', () => {
  it('tell followers the old name is empty and the new one holds the head', async () => {
    const events = new RevisionEvents();
    const seen: RevisionEvent[] = [];
    events.subscribe((event) => seen.push(event));
    const temp = openTempEngine({ events });
    try {
      const head = temp.engine.applyDocuments({ namespace: 'ev', branch: 'dev' }, docs({ a: '1' })).revision;
      await new Promise((resolve) => setImmediate(resolve));
      seen.length = 0;
      temp.engine.renameBranch({ namespace: 'ev', branch: 'dev' }, 'next');
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual([
        { namespace: 'ev', branch: 'dev', revision: 0 },
        { namespace: 'ev', branch: 'next', revision: head },
      ]);
    } finally {
      temp.close();
    }
  });
});
