import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// `contents: false` on the writes: changes by key and type only, marked `contents_omitted`, so an agent
// checkpointing a large state each step does not download it twice per step. Over a real socket, with
// the answers' sizes as sent.

type Answer = { changes: { key: string; type: string; before?: string }[]; contents_omitted?: boolean };

/** A JSON document of about 950 KB whose `step` field is `step`. */
const bigState = (step: number) => JSON.stringify({ step, log: 'x'.repeat(950 * 1024) });

describe('contents: false on the store writes', () => {
  const socket = socketStore();
  const post = async (path: string, body: unknown, key?: string) => {
    const response = await fetch(`${socket.base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      bytes: Buffer.byteLength(text),
      body: JSON.parse(text) as Answer & Record<string, unknown>,
    };
  };
  const apply = (namespace: string, documents: unknown[], extra: object = {}, branch = 'main') =>
    post('/v1/apply', { scope: { namespace, branch }, documents, ...extra });

  it('answers a one-field change of a 950 KB document by key and type, not with both sides', async () => {
    expect((await apply('lean', [{ key: 'state.json', content: bigState(1) }])).status).toBe(200);
    const full = await apply('lean', [{ key: 'state.json', content: bigState(2) }]);
    expect(full.bytes).toBeGreaterThan(1_900_000);
    const lean = await apply('lean', [{ key: 'state.json', content: bigState(3) }], { contents: false });
    expect(lean.status).toBe(200);
    expect(lean.body).toEqual({
      revision: 3,
      noop: false,
      changes: [{ key: 'state.json', type: 'update' }],
      contents_omitted: true,
    });
    expect(lean.bytes).toBeLessThan(200);
    // The write itself is whole.
    const state = await socket.send('GET', '/v1/state?namespace=lean&key=state.json');
    expect((state.body.objects as Record<string, string>)['state.json']).toBe(bigState(3));
  });

  it('leaves the contents in with contents: true, as without it', async () => {
    const answer = await apply('lean-true', [{ key: 'a', content: 'one' }], { contents: true });
    expect(answer.body).toEqual({ revision: 1, noop: false, changes: [{ key: 'a', type: 'create', after: 'one' }] });
  });

  it('answers rollback, restore, merge, revert and cherry-pick without contents when asked', async () => {
    const namespace = 'lean-writes';
    const scope = { namespace };
    await apply(namespace, [{ key: 'a', content: 'one' }]);
    await apply(namespace, [{ key: 'a', content: 'two' }]);
    const lean = (body: Answer) => {
      expect(body.contents_omitted).toBe(true);
      for (const change of body.changes) expect(Object.keys(change).sort()).toEqual(['key', 'type']);
      return body.changes;
    };
    const rollback = await post('/v1/rollback', { scope, revision_id: 1, contents: false });
    expect(rollback.status).toBe(200);
    expect(lean(rollback.body)).toEqual([{ key: 'a', type: 'update' }]);
    const restore = await post('/v1/restore', { scope, from_revision: 2, contents: false });
    expect(restore.status).toBe(200);
    expect(lean(restore.body)).toEqual([{ key: 'a', type: 'update' }]);
    const revert = await post('/v1/revert', { scope, revision_id: 4, contents: false });
    expect(revert.status).toBe(200);
    expect(lean(revert.body)).toEqual([{ key: 'a', type: 'update' }]);

    expect((await post('/v1/branches', { scope, name: 'side' })).status).toBe(200);
    const onSide = await apply(namespace, [{ key: 'b', content: 'side' }], {}, 'side');
    const pick = await post('/v1/cherry-pick', { scope, revision_id: onSide.body.revision, contents: false });
    expect(pick.status).toBe(200);
    expect(lean(pick.body)).toEqual([{ key: 'b', type: 'create' }]);
    const sideHead = (await apply(namespace, [{ key: 'c', content: 'side' }], {}, 'side')).body.revision;
    const dryMerge = await post('/v1/merge', { scope, from_branch: 'side', dry_run: true, contents: false });
    expect(dryMerge.status).toBe(200);
    expect(lean(dryMerge.body)).toEqual([{ key: 'c', type: 'create' }]);
    const merge = await post('/v1/merge', { scope, from_branch: 'side', contents: false });
    expect(merge.status).toBe(200);
    expect(merge.body.from_revision).toBe(sideHead);
    expect(lean(merge.body)).toEqual([{ key: 'c', type: 'create' }]);
  });

  it('replays the lean answer that was sent to a retry with the same Idempotency-Key', async () => {
    await apply('lean-idem', [{ key: 'state.json', content: bigState(1) }]);
    const body = { scope: { namespace: 'lean-idem' }, documents: [{ key: 'state.json', content: bigState(2) }] };
    const first = await post('/v1/apply', { ...body, contents: false }, 'lean-1');
    expect(first.status).toBe(200);
    expect(first.body.contents_omitted).toBe(true);
    const retry = await post('/v1/apply', { ...body, contents: false }, 'lean-1');
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.bytes).toBeLessThan(200);
    const log = await socket.send('GET', '/v1/log?namespace=lean-idem&contents=false');
    expect(log.body.total).toBe(2);
  });

  it('refuses a contents that is not true or false, naming the field', async () => {
    const answer = await apply('lean-bad', [{ key: 'a', content: 'one' }], { contents: 'no' });
    expect(answer.status).toBe(400);
    expect((answer.body as unknown as { error: { message: string } }).error.message).toMatch(
      /contents must be true or false, got a string/,
    );
  });
});
