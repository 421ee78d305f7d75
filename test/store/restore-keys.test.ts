import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore, WRITER } from './support/socket-store.js';

// One document brought back from an older revision (`git checkout <rev> -- <path>`) and read there
// (`git show <rev>:<path>`): `POST /v1/restore` with `keys`, `GET /v1/state` with `key`.
describe('restore and state of named documents', () => {
  const READER = 'st-reader-0123456789abcdef0123';
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'ci', token: WRITER, verbs: ['write'], namespaces: ['*'] },
      { name: 'viewer', token: READER, verbs: ['read'], namespaces: ['*'] },
    ],
  });
  const apply = async (namespace: string, documents: Record<string, string | null>, branch = 'main') => {
    const written = await socket.send('POST', '/v1/apply', {
      scope: { namespace, branch },
      documents: Object.entries(documents).map(([key, content]) =>
        content === null ? { key, delete: true } : { key, content },
      ),
    });
    expect(written.status).toBe(200);
    return written.body.revision as number;
  };
  const restore = (namespace: string, body: Record<string, unknown>, token?: string) =>
    socket.send('POST', '/v1/restore', { scope: { namespace, branch: 'main' }, ...body }, token);
  const state = async (namespace: string, query = '') =>
    (await socket.send('GET', `/v1/state?namespace=${namespace}${query}`)).body as {
      revision: number;
      objects: Record<string, string>;
    };
  const lastMessage = async (namespace: string) =>
    ((await socket.send('GET', `/v1/log?namespace=${namespace}&limit=1`)).body.entries as { message: string }[])[0]!
      .message;

  it('restores only the named document from an older revision and names it in the message', async () => {
    const old = await apply('rk-one', { 'prompts/a.md': 'a1', 'prompts/b.md': 'b1' });
    await apply('rk-one', { 'prompts/a.md': 'a2', 'prompts/b.md': 'b2', 'c.md': 'c' });
    const answer = await restore('rk-one', { from_revision: old, keys: ['prompts/a.md'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      noop: false,
      changes: [{ key: 'prompts/a.md', type: 'update', before: 'a2', after: 'a1' }],
    });
    expect((await state('rk-one')).objects).toEqual({ 'prompts/a.md': 'a1', 'prompts/b.md': 'b2', 'c.md': 'c' });
    expect(await lastMessage('rk-one')).toBe(`restore prompts/a.md from main@${old}`);
  });

  it('brings back a deleted document, and deletes a named document the source does not hold', async () => {
    const old = await apply('rk-deleted', { 'gone.md': 'was here', keep: 'k1' });
    await apply('rk-deleted', { 'gone.md': null, 'new.md': 'later', keep: 'k2' });
    const answer = await restore('rk-deleted', { from_revision: old, keys: ['new.md', 'gone.md'] });
    expect(answer.body.changes).toEqual([
      { key: 'gone.md', type: 'create', after: 'was here' },
      { key: 'new.md', type: 'delete', before: 'later' },
    ]);
    expect((await state('rk-deleted')).objects).toEqual({ 'gone.md': 'was here', keep: 'k2' });
    expect(await lastMessage('rk-deleted')).toBe(`restore gone.md, new.md from main@${old}`);
  });

  it('restores from a checkpoint and from another branch, naming the source', async () => {
    const old = await apply('rk-sources', { 'x.md': 'x1', 'y.md': 'y1' });
    await socket.send('POST', '/v1/checkpoints', { scope: { namespace: 'rk-sources' }, name: 'v1' });
    await socket.send('POST', '/v1/branches', { scope: { namespace: 'rk-sources' }, name: 'feature' });
    const feature = await apply('rk-sources', { 'y.md': 'y-feature' }, 'feature');
    await apply('rk-sources', { 'x.md': 'x2', 'y.md': 'y2' });
    await restore('rk-sources', { from_checkpoint: 'v1', keys: ['x.md'] });
    expect(await lastMessage('rk-sources')).toBe(`restore x.md from checkpoint "v1" (main@${old})`);
    await restore('rk-sources', { from_branch: 'feature', keys: ['y.md'] });
    expect(await lastMessage('rk-sources')).toBe(`restore y.md from feature@${feature}`);
    expect((await state('rk-sources')).objects).toEqual({ 'x.md': 'x1', 'y.md': 'y-feature' });
  });

  it('writes nothing when the named documents already match, or are absent on both sides', async () => {
    const old = await apply('rk-noop', { same: 's', other: 'o1' });
    const head = await apply('rk-noop', { other: 'o2' });
    const answer = await restore('rk-noop', { from_revision: old, keys: ['same', 'never-written'] });
    expect(answer.body).toEqual({ revision: head, noop: true, changes: [] });
    expect((await state('rk-noop')).revision).toBe(head);
  });

  it('handles keys with odd characters, in the write, the message and the state read', async () => {
    const keys = ['a b+c.md', 'café', 'cafe\u0301', '__proto__', 'line\nbreak', 'rtl\u202Eevil', '../etc/passwd'];
    const old = await apply('rk-odd', Object.fromEntries(keys.map((key, i) => [key, `v${i}`])));
    await apply('rk-odd', Object.fromEntries(keys.map((key) => [key, null])));
    const answer = await restore('rk-odd', {
      from_revision: old,
      keys: ['line\nbreak', 'rtl\u202Eevil', 'cafe\u0301'],
    });
    expect((answer.body.changes as { key: string }[]).map((change) => change.key).sort()).toEqual(
      ['line\nbreak', 'rtl\u202Eevil', 'cafe\u0301'].sort(),
    );
    // Each key is quoted, reads as one line, and has its invisible characters spelled out.
    expect(await lastMessage('rk-odd')).toBe(`restore "cafe\u0301", "line\\nbreak", "rtl\\u202eevil" from main@${old}`);
    const query = keys.map((key) => `&key=${encodeURIComponent(key)}`).join('');
    const read = await state('rk-odd', `&revision=${old}${query}`);
    expect(read.revision).toBe(old);
    expect(Object.keys(read.objects)).toHaveLength(keys.length);
    expect(read.objects['__proto__']).toBe('v3');
    expect(read.objects['a b+c.md']).toBe('v0');
    expect(read.objects['café']).toBe('v1');
    expect(read.objects['cafe\u0301']).toBe('v2');
  });

  it('reads only the named documents at a revision, a checkpoint or the head; a missing key is left out', async () => {
    const old = await apply('rk-state', { 'a.md': 'a1', 'b.md': 'b1', 'c.md': 'c1' });
    await socket.send('POST', '/v1/checkpoints', { scope: { namespace: 'rk-state' }, name: 'cp' });
    const head = await apply('rk-state', { 'a.md': 'a2', 'b.md': null });
    expect(await state('rk-state', `&revision=${old}&key=a.md&key=b.md&key=missing`)).toEqual({
      revision: old,
      objects: { 'a.md': 'a1', 'b.md': 'b1' },
    });
    expect(await state('rk-state', '&checkpoint=cp&key=c.md')).toEqual({ revision: old, objects: { 'c.md': 'c1' } });
    expect(await state('rk-state', '&key=a.md&key=b.md')).toEqual({ revision: head, objects: { 'a.md': 'a2' } });
    // A lone empty key reads every document, as log's does.
    expect(Object.keys((await state('rk-state', '&key=')).objects)).toEqual(['a.md', 'c.md']);
  });

  it('keeps the ETag of a whole state and gives named documents their own', async () => {
    await apply('rk-etag', { 'a.md': 'a', 'b.md': 'b' });
    const tagOf = async (query: string) =>
      (
        await fetch(`${socket.base}/v1/state?namespace=rk-etag${query}`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).headers.get('etag');
    expect(await tagOf('&key=a.md')).not.toBe(await tagOf(''));
    expect(await tagOf('&key=a.md')).not.toBe(await tagOf('&key=b.md'));
  });

  it('refuses bad key lists with messages naming the field', async () => {
    await apply('rk-bad', { 'a.md': 'a' });
    const refused = async (body: Record<string, unknown>) => {
      const answer = await restore('rk-bad', { from_revision: 1, ...body });
      expect(answer.status).toBe(400);
      return (answer.body.error as { message: string }).message;
    };
    expect(await refused({ keys: [] })).toContain('keys must name at least one document');
    expect(await refused({ keys: [''] })).toContain('keys[0]');
    expect(await refused({ keys: 'a.md' })).toContain('keys must be an array');
    expect(await refused({ keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) })).toContain('at most 1000');
    expect(await refused({ keys: ['a.md'], key: 'a.md' })).toContain('unknown field "key"');
    const page = await socket.send('GET', '/v1/state?namespace=rk-bad&key=a.md&limit=10');
    expect(page.status).toBe(400);
    expect((page.body.error as { message: string }).message).toContain('send it without limit and after');
    const tooMany = Array.from({ length: 1001 }, (_, i) => `key=k${i}`).join('&');
    expect((await socket.send('GET', `/v1/state?namespace=rk-bad&${tooMany}`)).status).toBe(400);
  });

  it('lets a write-only token restore named documents without seeing them, and not read them', async () => {
    const old = await apply('rk-perm', { secret: 's1', other: 'o1' });
    await apply('rk-perm', { secret: 's2', other: 'o2' });
    const answer = await restore('rk-perm', { from_revision: old, keys: ['secret'] }, WRITER);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      noop: false,
      changes: [{ key: 'secret', type: 'update' }],
      contents_omitted: true,
    });
    expect(JSON.stringify(answer.body)).not.toContain('s1');
    const read = await socket.send('GET', `/v1/state?namespace=rk-perm&revision=${old}&key=secret`, undefined, WRITER);
    expect(read.status).toBe(403);
    const readOnly = await restore('rk-perm', { from_revision: old, keys: ['other'] }, READER);
    expect(readOnly.status).toBe(403);
    expect((await state('rk-perm')).objects).toEqual({ secret: 's1', other: 'o2' });
  });

  it('leaves the branch history and its merges in place: a named restore is not a rollback', async () => {
    const base = await apply('rk-merge', { 'a.md': 'a1' });
    await socket.send('POST', '/v1/branches', { scope: { namespace: 'rk-merge' }, name: 'hotfix' });
    await apply('rk-merge', { 'fix.md': 'fixed' }, 'hotfix');
    const merged = await socket.send('POST', '/v1/merge', { scope: { namespace: 'rk-merge' }, from_branch: 'hotfix' });
    expect(merged.status).toBe(200);
    await restore('rk-merge', { from_revision: base, keys: ['fix.md'] });
    // The merge stays on record, so merging hotfix again brings nothing back.
    const again = await socket.send('POST', '/v1/merge', { scope: { namespace: 'rk-merge' }, from_branch: 'hotfix' });
    expect(again.body).toMatchObject({ noop: true });
    expect((await state('rk-merge')).objects).toEqual({ 'a.md': 'a1' });
  });
});
