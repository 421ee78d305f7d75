import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { branchWrites, socketStore } from './support/socket-store.js';

// Retries sent with an Idempotency-Key by different client libraries: one spells out a field's default
// (`"dry_run": false`, `"expected_revision": null`, `"description": ""`), another leaves it out. They
// are the same request and get the kept answer. A key that is not ASCII is refused showing the key as
// it was typed, not its UTF-8 bytes read as Latin-1.

describe('Idempotency-Key over the socket', () => {
  const socket = socketStore();
  const { apply, branchFrom } = branchWrites(socket);
  const post = (path: string, body: unknown, key: string) =>
    fetch(`${socket.base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        // Header values go out as bytes: this sends the key's UTF-8, as curl and most clients do.
        'idempotency-key': Buffer.from(key, 'utf8').toString('latin1'),
      },
      body: JSON.stringify(body),
    });

  it('replays a retry that leaves out a field sent with its default value', async () => {
    const ns = 'sf2/idem-defaults';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    await branchFrom(ns, 'main', 'feature');
    await apply(ns, 'feature', [{ key: 'f', content: '1' }]);
    const scope = { namespace: ns, branch: 'main' };
    const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['/v1/revert', { scope, revision_id: first + 1, dry_run: false }, { scope, revision_id: first + 1 }],
      [
        '/v1/merge',
        { scope, from_branch: 'feature', expected_from_revision: null, dry_run: false },
        { scope, from_branch: 'feature' },
      ],
      ['/v1/checkpoints', { scope, name: 'c1', description: '', create_only: false }, { scope, name: 'c1' }],
      [
        '/v1/apply',
        { scope, documents: [{ key: 'b', content: '1', delete: false }], expected_revision: null, message: '' },
        { scope, documents: [{ key: 'b', content: '1' }] },
      ],
    ];
    for (const [path, spelled, bare] of pairs) {
      const key = `sf2-${path}`;
      const written = await post(path, spelled, key);
      expect(written.status, path).toBe(200);
      const retried = await post(path, bare, key);
      expect(retried.status, `${path}: ${await retried.clone().text()}`).toBe(200);
      expect(retried.headers.get('idempotent-replayed'), path).toBe('true');
      expect(await retried.json()).toEqual(await written.json());
    }
  });

  it('still refuses a retry that changes a value', async () => {
    const ns = 'sf2/idem-changed';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const scope = { namespace: ns };
    expect((await post('/v1/checkpoints', { scope, name: 'c1', create_only: false }, 'sf2-changed')).status).toBe(200);
    expect((await post('/v1/checkpoints', { scope, name: 'c1', create_only: true }, 'sf2-changed')).status).toBe(422);
  });

  it('shows a key that is not ASCII as it was typed', async () => {
    const answer = await post('/v1/apply', { scope: { namespace: 'sf2/idem-key' }, documents: [] }, 'clé-1');
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toBe(
      'header Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID, say), got "clé-1"',
    );
  });
});
