import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore, type SocketStore } from './support/socket-store.js';

// A diff of named documents (`git diff <a> <b> -- <path>`): `keys` on POST /v1/diff, as restore takes
// it, so one document can be compared between two revisions without reading the whole diff.

type Change = { key: string; type: string; before?: string; after?: string };

/** Sends a diff of `namespace`'s main branch; the answer checked to be 200. */
async function diffOk(socket: SocketStore, namespace: string, body: Record<string, unknown>) {
  const answer = await socket.send('POST', '/v1/diff', { scope: { namespace, branch: 'main' }, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { from_revision: number; to_revision: number; changes: Change[]; contents_omitted?: true };
}

describe('POST /v1/diff with keys', () => {
  const socket = socketStore();
  const writes = branchWrites(socket);

  it('answers, in every form, exactly the whole diff’s changes of the named keys', async () => {
    const ns = 'dk-forms';
    const first = await writes.apply(ns, 'main', [
      { key: 'a.md', content: 'a1' },
      { key: 'b.md', content: 'b1' },
      { key: 'c.md', content: 'c1' },
      { key: '__proto__', content: 'p1' },
    ]);
    await socket.send('POST', '/v1/checkpoints', { scope: { namespace: ns }, name: 'v1' });
    await writes.branchFrom(ns, 'main', 'feature');
    const feature = await writes.apply(ns, 'feature', [
      { key: 'a.md', content: 'a-feature' },
      { key: 'd.md', content: 'd-feature' },
      { key: 'f.md', content: 'f-feature' },
    ]);
    const middle = await writes.apply(ns, 'main', [
      { key: 'a.md', content: 'a2' },
      { key: 'b.md', delete: true },
      { key: 'e.md', content: 'e2' },
    ]);
    await writes.apply(ns, 'main', [
      { key: 'c.md', content: 'c3' },
      { key: '__proto__', content: 'p3' },
    ]);
    const keys = ['a.md', 'b.md', 'd.md', '__proto__', 'never-written', 'a.md'];
    const forms: Record<string, unknown>[] = [
      { revision_id: first },
      { revision_id: middle },
      { checkpoint_name: 'v1' },
      { branch_name: 'feature' },
      { from: { revision_id: first } },
      { from: { revision_id: feature } },
      { from: { checkpoint_name: 'v1' } },
      { from: { branch_name: 'feature' } },
      { from: { checkpoint_name: 'v1' }, branch_name: 'feature' },
      // Neither side a head: the states are compared in memory.
      { from: { revision_id: middle }, revision_id: first },
      { from: { checkpoint_name: 'v1' }, revision_id: middle },
    ];
    for (const form of forms) {
      const whole = await diffOk(socket, ns, form);
      const named = await diffOk(socket, ns, { ...form, keys });
      expect(named, JSON.stringify(form)).toEqual({
        ...whole,
        changes: whole.changes.filter((change) => keys.includes(change.key)),
      });
      expect(named.changes.length, JSON.stringify(form)).toBeGreaterThan(0);
      expect(whole.changes.length, JSON.stringify(form)).toBeGreaterThan(named.changes.length);
    }
  });

  it('previews a restore of the same keys: both answer the same changes', async () => {
    const ns = 'dk-restore';
    const old = await writes.apply(ns, 'main', [
      { key: 'gone.md', content: 'was here' },
      { key: 'keep', content: 'k1' },
    ]);
    await writes.apply(ns, 'main', [
      { key: 'gone.md', delete: true },
      { key: 'new.md', content: 'later' },
      { key: 'keep', content: 'k2' },
    ]);
    const keys = ['new.md', 'gone.md', 'absent'];
    const preview = await diffOk(socket, ns, { revision_id: old, keys });
    expect(preview.changes).toEqual([
      { key: 'gone.md', type: 'create', after: 'was here' },
      { key: 'new.md', type: 'delete', before: 'later' },
    ]);
    const restored = await socket.send('POST', '/v1/restore', {
      scope: { namespace: ns, branch: 'main' },
      from_revision: old,
      keys,
    });
    expect(restored.body.changes).toEqual(preview.changes);
    // Now head holds them as the old revision did: nothing differs.
    expect((await diffOk(socket, ns, { revision_id: old, keys })).changes).toEqual([]);
  });

  it('keeps only the named keys of a documents preview', async () => {
    const ns = 'dk-documents';
    const head = await writes.apply(ns, 'main', [
      { key: 'a', content: 'a1' },
      { key: 'b', content: 'b1' },
    ]);
    const answer = await diffOk(socket, ns, {
      documents: [
        { key: 'a', content: 'a2' },
        { key: 'c', content: 'c2' },
      ],
      mode: 'replace',
      keys: ['b', 'c'],
    });
    expect(answer).toEqual({
      from_revision: head,
      to_revision: head,
      changes: [
        { key: 'b', type: 'delete', before: 'b1' },
        { key: 'c', type: 'create', after: 'c2' },
      ],
    });
  });

  it('refuses bad key lists with restore’s messages, naming the field', async () => {
    await writes.apply('dk-bad', 'main', [{ key: 'a.md', content: 'a' }]);
    const refused = async (body: Record<string, unknown>) => {
      const answer = await socket.send('POST', '/v1/diff', { scope: { namespace: 'dk-bad' }, revision_id: 1, ...body });
      expect(answer.status).toBe(400);
      return (answer.body.error as { message: string }).message;
    };
    expect(await refused({ keys: [] })).toContain('keys must name at least one document; leave it out for all of them');
    expect(await refused({ keys: [''] })).toContain('keys[0]');
    expect(await refused({ keys: 'a.md' })).toContain('keys must be an array of document keys');
    expect(await refused({ keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) })).toContain(
      'keys names at most 1000 documents',
    );
    expect(await refused({ key: 'a.md' })).toContain('unknown field "key"');
  });
});

describe('POST /v1/diff with keys past response_bytes', () => {
  const socket = socketStore({ limits: { response_bytes: 1024 } });
  const writes = branchWrites(socket);

  it('carries contents when the named changes are within the bound, and omits them past it', async () => {
    const ns = 'dk-bound';
    const big = 'x'.repeat(700);
    const old = await writes.apply(ns, 'main', [
      { key: 'small', content: 's1' },
      { key: 'big1', content: big },
      { key: 'big2', content: big },
    ]);
    await writes.apply(ns, 'main', [
      { key: 'small', content: 's2' },
      { key: 'big1', delete: true },
      { key: 'big2', delete: true },
    ]);
    const whole = await diffOk(socket, ns, { revision_id: old });
    expect(whole.contents_omitted).toBe(true);
    expect(await diffOk(socket, ns, { revision_id: old, keys: ['small', 'big1'] })).toEqual({
      from_revision: old + 1,
      to_revision: old,
      changes: [
        { key: 'big1', type: 'create', after: big },
        { key: 'small', type: 'update', before: 's2', after: 's1' },
      ],
    });
    expect(await diffOk(socket, ns, { revision_id: old, keys: ['big2', 'big1'] })).toEqual({
      from_revision: old + 1,
      to_revision: old,
      changes: [
        { key: 'big1', type: 'create' },
        { key: 'big2', type: 'create' },
      ],
      contents_omitted: true,
    });
  });
});
