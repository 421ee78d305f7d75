import { describe, expect, it } from 'vitest';
import { socketStore } from '../support/socket-store.js';

// A list of changes carries every content before and after, and one list can cover a whole branch: a
// branch's first revision, a rollback, a restore, a replace, a diff against an old revision. Past
// response_bytes of contents such a list comes with keys and types only and says so, and the contents
// of a revision are read in pages of GET /v1/revisions/:id.

const RESPONSE_BYTES = 10_000;

type Change = { key: string; type: string; before?: string; after?: string };
type Changes = { changes: Change[]; contents_omitted?: boolean; next_cursor?: string };

describe('lists of changes past response_bytes', () => {
  const socket = socketStore({ limits: { response_bytes: RESPONSE_BYTES } });
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await socket.send(method, path, body);
    expect(answer.status).toBe(200);
    return answer.body as Changes & Record<string, unknown>;
  };

  // 30 documents of 1,000 bytes: 30,000 bytes of contents, three times the bound.
  const documents = Array.from({ length: 30 }, (_, i) => ({
    key: `k${String(i).padStart(2, '0')}`,
    content: String(i % 10).repeat(1_000),
  }));
  const keysOnly = (type: string) => documents.map(({ key }) => ({ key, type }));
  const contents = Object.fromEntries(documents.map((d) => [d.key, d.content]));

  it("lists a new branch's first revision by key and type in the log, and pages its contents", async () => {
    const scope = { namespace: 'big/branch', branch: 'main' };
    await send('POST', '/v1/apply', { scope, documents });
    const created = await send('POST', '/v1/branches', { scope, name: 'feature' });
    const log = await send('GET', '/v1/log?namespace=big/branch&branch=feature');
    const [entry] = log.entries as (Changes & { id: number })[];
    expect(entry.id).toBe(created.head_revision);
    expect(entry.contents_omitted).toBe(true);
    expect(entry.changes).toEqual(keysOnly('create'));
    expect((await send('GET', `/v1/revisions/${entry.id}?namespace=big/branch`)).changes).toEqual(keysOnly('create'));

    const seen: Change[] = [];
    let after = '';
    for (let page = 0; page < 10; page++) {
      const path = `/v1/revisions/${entry.id}?namespace=big/branch&limit=1000${after ? `&after=${after}` : ''}`;
      const answer = await send('GET', path);
      expect(answer.message).toBe('branch from main@1');
      expect(answer.contents_omitted).toBeUndefined();
      const bytes = answer.changes.reduce((n, c) => n + (c.after?.length ?? 0), 0);
      expect(bytes).toBeLessThanOrEqual(RESPONSE_BYTES);
      seen.push(...answer.changes);
      if (answer.next_cursor === undefined) break;
      after = answer.next_cursor;
    }
    expect(seen).toEqual(documents.map(({ key, content }) => ({ key, type: 'create', after: content })));
    const limited = await send('GET', `/v1/revisions/${entry.id}?namespace=big/branch&limit=7&after=k03`);
    expect(limited.changes.map((c) => c.key)).toEqual(['k04', 'k05', 'k06', 'k07', 'k08', 'k09', 'k10']);
    expect(limited.next_cursor).toBe('k10');
  });

  it('answers a replace, a rollback, a restore and their diffs by key and type', async () => {
    const scope = { namespace: 'big/writes', branch: 'main' };
    const first = await send('POST', '/v1/apply', { scope, documents });
    expect(first.contents_omitted).toBe(true);
    expect(first.changes).toEqual(keysOnly('create'));
    await send('POST', '/v1/checkpoints', { scope, name: 'full' });

    const only = [{ key: 'only', content: 'x' }];
    const preview = await send('POST', '/v1/diff', { scope, documents: only, mode: 'replace' });
    expect(preview.contents_omitted).toBe(true);
    const replaced = await send('POST', '/v1/apply', { scope, documents: only, mode: 'replace' });
    expect(replaced.contents_omitted).toBe(true);
    expect(replaced.changes).toEqual([...keysOnly('delete'), { key: 'only', type: 'create' }]);
    expect(preview.changes).toEqual(replaced.changes);

    const diff = await send('POST', '/v1/diff', { scope, revision_id: first.revision });
    expect(diff).toEqual({
      from_revision: replaced.revision,
      to_revision: first.revision,
      changes: [...keysOnly('create'), { key: 'only', type: 'delete' }],
      contents_omitted: true,
    });
    const rolled = await send('POST', '/v1/rollback', { scope, revision_id: first.revision });
    expect(rolled.contents_omitted).toBe(true);
    expect(rolled.changes).toEqual(diff.changes);

    await send('POST', '/v1/apply', { scope: { namespace: 'big/writes', branch: 'empty' }, documents: only });
    const restored = await send('POST', '/v1/restore', { scope, from_branch: 'empty' });
    expect(restored.contents_omitted).toBe(true);
    expect(restored.changes).toEqual(replaced.changes);

    // Against another branch's revision the diff reads that whole state, and still lists keys only.
    const across = await send('POST', '/v1/diff', { scope: { ...scope, branch: 'empty' }, checkpoint_name: 'full' });
    expect(across.contents_omitted).toBe(true);
    expect(across.changes).toEqual([...keysOnly('create'), { key: 'only', type: 'delete' }]);

    // What the omitted contents were is still there to read, a page at a time.
    const state = await send('GET', `/v1/state?namespace=big/writes&revision=${rolled.revision}&limit=1000`);
    expect(Object.keys(state.objects as object)).toHaveLength(9);
  });

  it('keeps the contents of lists within the bound', async () => {
    const scope = { namespace: 'small/writes' };
    const small = documents.slice(0, 9);
    const applied = await send('POST', '/v1/apply', { scope, documents: small });
    expect(applied).toEqual({
      revision: 1,
      noop: false,
      changes: small.map(({ key, content }) => ({ key, type: 'create', after: content })),
    });
    const updated = await send('POST', '/v1/apply', { scope, documents: [{ key: 'k00', content: 'new' }] });
    expect(updated.changes).toEqual([{ key: 'k00', type: 'update', before: contents.k00, after: 'new' }]);
    const diff = await send('POST', '/v1/diff', { scope, revision_id: 1 });
    expect(diff.changes).toEqual([{ key: 'k00', type: 'update', before: 'new', after: contents.k00 }]);
    expect(diff.contents_omitted).toBeUndefined();
    // The log's pages are bounded by response_bytes too: the two entries may take two pages.
    const log = await send('GET', '/v1/log?namespace=small/writes');
    const rest =
      log.next_cursor === undefined
        ? []
        : ((await send('GET', `/v1/log?namespace=small/writes&after=${log.next_cursor}`)).entries as Changes[]);
    expect([...(log.entries as Changes[]), ...rest].map((e) => e.contents_omitted)).toEqual([undefined, undefined]);
  });
});
