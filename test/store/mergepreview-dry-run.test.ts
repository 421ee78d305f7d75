import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { branchWrites, socketStore } from './support/socket-store.js';

// `dry_run` on POST /v1/merge and /v1/revert over a real socket: the answer the write would give,
// refusals included, with nothing written.

const WRITER = 'st-preview-writer-0123456789abcdef';
const READER = 'st-preview-reader-0123456789abcdef';

describe('dry_run on merge and revert', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'writer', token: WRITER, verbs: ['write'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
    ],
  });
  const { apply, branchFrom } = branchWrites(socket);
  const post = (path: string, body: Record<string, unknown>, key?: string, token = ADMIN_TOKEN) =>
    fetch(`${socket.base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
  const merge = (namespace: string, into: string, body: Record<string, unknown>, token?: string) =>
    socket.send('POST', '/v1/merge', { scope: { namespace, branch: into }, ...body }, token);
  const revert = (namespace: string, body: Record<string, unknown>) =>
    socket.send('POST', '/v1/revert', { scope: { namespace, branch: 'main' }, ...body });
  const log = async (namespace: string, branch: string) =>
    (await socket.send('GET', `/v1/log?namespace=${namespace}&branch=${branch}`)).body.entries as { id: number }[];
  /** Everything a write could leave behind: both branches' logs and the store's own record tables. */
  const written = async (namespace: string) => ({
    main: await log(namespace, 'main'),
    feature: await log(namespace, 'feature'),
    tables: socket.store.database.sqlite
      .prepare(
        'SELECT (SELECT count(*) FROM store_revisions) AS revisions, (SELECT count(*) FROM store_merges) AS merges, ' +
          '(SELECT count(*) FROM store_idempotency_keys) AS keys',
      )
      .get(),
  });
  const metric = async (line: string) => {
    const text = await (
      await fetch(`${socket.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).text();
    const found = text.split('\n').find((entry) => entry.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.split(' ')[1]);
  };

  /** `main` and `feature` parted at `fork`; each then changed documents the other did not touch. */
  const diverged = async (ns: string) => {
    const fork = await apply(ns, 'main', [
      { key: 'shared', content: 'base' },
      { key: 'main-only', content: 'base' },
      { key: 'feature-only', content: 'base' },
    ]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [
      { key: 'feature-only', content: 'feature' },
      { key: 'new', content: 'from feature' },
    ]);
    const mainHead = await apply(ns, 'main', [{ key: 'main-only', content: 'main' }]);
    return { fork, mainHead };
  };

  it('answers what the merge then writes, lists only what the source changed, and writes nothing', async () => {
    const ns = 'dry/merge';
    const { fork, mainHead } = await diverged(ns);
    const before = await written(ns);
    const success = await metric('svc_operations_total{operation="merge",result="success"}');
    const changed = await metric('svc_changed_documents_total{operation="merge"}');

    const preview = await merge(ns, 'main', { from_branch: 'feature', dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      revision: mainHead,
      noop: false,
      // main-only differs between the heads, but the merge keeps main's: it is not listed.
      changes: [
        { key: 'feature-only', type: 'update', before: 'base', after: 'feature' },
        { key: 'new', type: 'create', after: 'from feature' },
      ],
      merge_base: fork,
      from_revision: fork + 2,
      dry_run: true,
    });
    expect(await written(ns)).toEqual(before);
    expect(await metric('svc_operations_total{operation="merge",result="success"}')).toBe(success);
    expect(await metric('svc_changed_documents_total{operation="merge"}')).toBe(changed);

    const real = await merge(ns, 'main', { from_branch: 'feature', expected_revision: mainHead });
    expect(real.status).toBe(200);
    const { revision: _revision, dry_run: _dryRun, ...previewed } = preview.body;
    expect(real.body).toEqual({ ...previewed, revision: mainHead + 1 });

    // The merge recorded the source head: a later preview and merge start from it, not from the fork.
    const featureHead = await apply(ns, 'feature', [{ key: 'shared', content: 'feature again' }]);
    await apply(ns, 'main', [{ key: 'main-only', content: 'main again' }]);
    const again = await merge(ns, 'main', { from_branch: 'feature', dry_run: true });
    expect(again.body).toEqual(
      expect.objectContaining({
        merge_base: fork + 2,
        from_revision: featureHead,
        changes: [{ key: 'shared', type: 'update', before: 'base', after: 'feature again' }],
      }),
    );
    const second = await merge(ns, 'main', { from_branch: 'feature' });
    expect(second.body).toEqual(expect.objectContaining({ merge_base: fork + 2, changes: again.body.changes }));
  });

  it('says already up to date as the merge would, with the head and the merge base', async () => {
    const ns = 'dry/noop';
    await diverged(ns);
    const merged = await merge(ns, 'main', { from_branch: 'feature' });
    const preview = await merge(ns, 'main', { from_branch: 'feature', dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      revision: merged.body.revision,
      noop: true,
      changes: [],
      merge_base: merged.body.from_revision,
      from_revision: merged.body.from_revision,
      dry_run: true,
    });
  });

  it('refuses a conflict and every other refusal exactly as the merge does, writing nothing', async () => {
    const ns = 'dry/conflict';
    const { mainHead } = await diverged(ns);
    await apply(ns, 'main', [{ key: 'feature-only', content: 'main too' }]);
    const bodies: Record<string, unknown>[] = [
      { from_branch: 'feature' },
      { from_branch: 'feature', expected_revision: mainHead },
      { from_branch: 'feature', expected_from_revision: 1 },
      { from_branch: 'main' },
      { from_branch: 'nope' },
    ];
    for (const body of bodies) {
      const before = await written(ns);
      const preview = await merge(ns, 'main', { ...body, dry_run: true });
      expect(await written(ns)).toEqual(before);
      const real = await merge(ns, 'main', body);
      expect(real.status).toBeGreaterThanOrEqual(400);
      expect(preview).toEqual(real);
    }
    const conflict = await merge(ns, 'main', { from_branch: 'feature', dry_run: true });
    expect(conflict.status).toBe(409);
    expect((conflict.body.error as { message: string }).message).toContain('"feature-only" (both updated it');
    const missing = await merge(ns, 'nowhere', { from_branch: 'feature', dry_run: true });
    expect(missing).toEqual(await merge(ns, 'nowhere', { from_branch: 'feature' }));
    expect(missing.status).toBe(404);
  });

  it('needs the write permission, and shows a write-only token keys and types only', async () => {
    const ns = 'dry/auth';
    await diverged(ns);
    expect((await merge(ns, 'main', { from_branch: 'feature', dry_run: true }, READER)).status).toBe(403);
    const preview = await merge(ns, 'main', { from_branch: 'feature', dry_run: true }, WRITER);
    expect(preview.body).toEqual(
      expect.objectContaining({
        changes: [
          { key: 'feature-only', type: 'update' },
          { key: 'new', type: 'create' },
        ],
        contents_omitted: true,
        dry_run: true,
      }),
    );
  });

  it('keeps no Idempotency-Key answer for a dry run, so the real write with that key still writes', async () => {
    const ns = 'dry/idem';
    const { mainHead } = await diverged(ns);
    const body = { scope: { namespace: ns }, from_branch: 'feature' };
    const before = await written(ns);
    const preview = await post('/v1/merge', { ...body, dry_run: true }, 'dry-key');
    expect(preview.status).toBe(200);
    expect(preview.headers.get('idempotent-replayed')).toBeNull();
    expect(await written(ns)).toEqual(before);
    const again = await post('/v1/merge', { ...body, dry_run: true }, 'dry-key');
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    const real = await post('/v1/merge', body, 'dry-key');
    expect(real.status).toBe(200);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(((await real.json()) as { revision: number }).revision).toBe(mainHead + 1);
    const retry = await post('/v1/merge', body, 'dry-key');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const reverted = await post('/v1/revert', { scope: { namespace: ns }, revision_id: mainHead, dry_run: true }, 'r');
    expect(reverted.status).toBe(200);
    const undo = await post('/v1/revert', { scope: { namespace: ns }, revision_id: mainHead }, 'r');
    expect(undo.headers.get('idempotent-replayed')).toBeNull();
    expect(((await undo.json()) as { noop: boolean }).noop).toBe(false);
  });

  it('answers what a revert then writes, refuses its conflict the same way, and writes nothing', async () => {
    const ns = 'dry/revert';
    await apply(ns, 'main', [
      { key: 'a', content: '1' },
      { key: 'b', content: '1' },
    ]);
    const target = await apply(ns, 'main', [
      { key: 'a', content: '2' },
      { key: 'c', content: 'new' },
    ]);
    const head = await apply(ns, 'main', [{ key: 'b', content: '2' }]);
    const before = await written(ns);
    const preview = await revert(ns, { revision_id: target, dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      revision: head,
      noop: false,
      changes: [
        { key: 'a', type: 'update', before: '2', after: '1' },
        { key: 'c', type: 'delete', before: 'new' },
      ],
      dry_run: true,
    });
    expect(await written(ns)).toEqual(before);
    const real = await revert(ns, { revision_id: target, expected_revision: head });
    const { revision: _revision, dry_run: _dryRun, ...previewed } = preview.body;
    expect(real.body).toEqual({ ...previewed, revision: head + 1 });

    const twice = await revert(ns, { revision_id: target, dry_run: true });
    expect(twice.body).toEqual({ revision: head + 1, noop: true, changes: [], dry_run: true });

    // a changed again since: reverting that revision now conflicts, previewed or not.
    await apply(ns, 'main', [{ key: 'a', content: '3' }]);
    const beforeRefusal = await written(ns);
    const blocked = await revert(ns, { revision_id: target, dry_run: true });
    expect(blocked.status).toBe(409);
    expect(await written(ns)).toEqual(beforeRefusal);
    expect(blocked).toEqual(await revert(ns, { revision_id: target }));
    const moved = await revert(ns, { revision_id: head, expected_revision: head, dry_run: true });
    expect(moved.status).toBe(409);
    expect(moved).toEqual(await revert(ns, { revision_id: head, expected_revision: head }));
  });

  it('refuses a dry_run that is not a boolean', async () => {
    const answer = await merge('dry/bad', 'main', { from_branch: 'feature', dry_run: 'yes' });
    expect(answer.status).toBe(400);
    expect((answer.body.error as { message: string }).message).toContain('dry_run must be true or false');
  });
});
