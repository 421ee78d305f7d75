import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// A client listing a revision or a state of large documents should not have to download every content
// to learn the names: `contents=false` answers keys, types and sizes (as `git ls-tree -l` and
// `git show --stat`), and `key` on a revision reads one document's change alone.
describe('keys-only reads of states and revisions', () => {
  const socket = socketStore();
  const big = 'x'.repeat(5_000);
  const apply = async (documents: Record<string, string | null>) => {
    const written = await socket.send('POST', '/v1/apply', {
      scope: { namespace: 'lists', branch: 'main' },
      documents: Object.entries(documents).map(([key, content]) =>
        content === null ? { key, delete: true } : { key, content },
      ),
    });
    expect(written.status).toBe(200);
    return written.body.revision as number;
  };

  it('lists a state’s documents with their sizes and no contents, whole, paged and named', async () => {
    const first = await apply({ 'a.md': big, 'b.md': 'héllo', 'c.md': 'c' });
    await apply({ 'a.md': 'short', 'c.md': null });

    const head = await socket.send('GET', '/v1/state?namespace=lists&contents=false');
    expect(head.status).toBe(200);
    expect(head.body).toEqual({
      revision: first + 1,
      documents: [
        { key: 'a.md', bytes: 5 },
        { key: 'b.md', bytes: 6 },
      ],
    });

    const old = await socket.send('GET', `/v1/state?namespace=lists&revision=${first}&contents=false&limit=2`);
    expect(old.body).toEqual({
      revision: first,
      documents: [
        { key: 'a.md', bytes: 5_000 },
        { key: 'b.md', bytes: 6 },
      ],
      next_cursor: 'b.md',
    });
    const rest = await socket.send('GET', `/v1/state?namespace=lists&revision=${first}&contents=false&after=b.md`);
    expect(rest.body).toEqual({ revision: first, documents: [{ key: 'c.md', bytes: 1 }] });

    const named = await socket.send(
      'GET',
      `/v1/state?namespace=lists&revision=${first}&contents=false&key=c.md&key=gone.md`,
    );
    expect(named.body).toEqual({ revision: first, documents: [{ key: 'c.md', bytes: 1 }] });
  });

  it('answers a listing in its own shape, and refuses a contents that is not true or false', async () => {
    const withContents = await socket.send('GET', '/v1/state?namespace=lists');
    const listing = await socket.send('GET', '/v1/state?namespace=lists&contents=false');
    expect(Object.keys(withContents.body)).toEqual(['revision', 'objects']);
    expect(Object.keys(listing.body)).toEqual(['revision', 'documents']);

    const wrong = await socket.send('GET', '/v1/state?namespace=lists&contents=no');
    expect(wrong.status).toBe(400);
    expect((wrong.body.error as { message: string }).message).toMatch(/contents/);
  });

  it('lists a revision’s changes with sizes, and reads one document’s change alone', async () => {
    const revision = await apply({ 'a.md': big, 'b.md': null, 'd.md': 'new' });

    const listed = await socket.send('GET', `/v1/revisions/${revision}?namespace=lists&contents=false`);
    expect(listed.status).toBe(200);
    expect(listed.body.changes).toEqual([
      { key: 'a.md', type: 'update', before_bytes: 5, after_bytes: 5_000 },
      { key: 'b.md', type: 'delete', before_bytes: 6 },
      { key: 'd.md', type: 'create', after_bytes: 3 },
    ]);
    expect(listed.body.contents_omitted).toBe(true);

    const paged = await socket.send('GET', `/v1/revisions/${revision}?namespace=lists&contents=false&limit=2`);
    expect(paged.body.changes).toHaveLength(2);
    expect(paged.body.next_cursor).toBe('b.md');

    const one = await socket.send('GET', `/v1/revisions/${revision}?namespace=lists&key=a.md&key=c.md`);
    expect(one.status).toBe(200);
    expect(one.body.changes).toEqual([{ key: 'a.md', type: 'update', before: 'short', after: big }]);
    expect(one.body.contents_omitted).toBeUndefined();

    const both = await socket.send('GET', `/v1/revisions/${revision}?namespace=lists&key=a.md&limit=1`);
    expect(both.status).toBe(400);
    expect((both.body.error as { message: string }).message).toMatch(/key .* without limit and after/);
  });
});
