import { describe, expect, it } from 'vitest';
import { branchWrites, socketStore } from './support/socket-store.js';

// Checkpoint names are shown in lists and the UI: an invisible or reordering format character
// (zero-width space, right-to-left override) or a decomposed look-alike would let `v1` and a different
// checkpoint that looks like `v1` both exist. New names refuse format characters and are stored in NFC;
// names stored before still read and delete as they are.

describe('checkpoint names', () => {
  const socket = socketStore();
  const { apply } = branchWrites(socket);
  const create = (namespace: string, name: string) =>
    socket.send('POST', '/v1/checkpoints', { scope: { namespace }, name });
  const names = async (namespace: string) =>
    ((await socket.send('GET', `/v1/checkpoints?namespace=${namespace}`)).body.checkpoints as { name: string }[]).map(
      (checkpoint) => checkpoint.name,
    );

  it('refuses format characters, naming them by code point', async () => {
    const ns = 'sf2/cp-format';
    await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    for (const [name, named] of [
      ['v1\u200b', 'U+200B'],
      ['\u202Ev1', 'U+202E'],
      ['v\uFEFF1', 'U+FEFF'],
    ]) {
      const answer = await create(ns, name);
      expect(answer.status, name).toBe(400);
      expect((answer.body.error as { message: string }).message).toBe(
        `name: must not contain invisible format characters (such as zero-width spaces or direction overrides), found ${named}`,
      );
    }
    expect(await names(ns)).toEqual([]);
  });

  it('stores a name in NFC, so a decomposed spelling is the same checkpoint', async () => {
    const ns = 'sf2/cp-nfc';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    expect((await create(ns, decomposed)).body).toEqual({ name: composed, revision_id: first });
    const second = await apply(ns, 'main', [{ key: 'a', content: '2' }]);
    expect((await create(ns, composed)).body).toEqual({ name: composed, revision_id: second });
    expect(await names(ns)).toEqual([composed]);
    const state = await socket.send('GET', `/v1/state?namespace=${ns}&checkpoint=${encodeURIComponent(decomposed)}`);
    expect(state.body).toEqual({ revision: second, objects: { a: '2' } });
  });

  it('still reads, moves and deletes a name stored before, as it was stored', async () => {
    const ns = 'sf2/cp-legacy';
    const first = await apply(ns, 'main', [{ key: 'a', content: '1' }]);
    expect((await create(ns, 'old')).status).toBe(200);
    const legacy = 'old\u200b';
    socket.store.database.sqlite.prepare('UPDATE store_checkpoints SET name = ? WHERE name = ?').run(legacy, 'old');
    const state = await socket.send('GET', `/v1/state?namespace=${ns}&checkpoint=${encodeURIComponent(legacy)}`);
    expect(state.body).toEqual({ revision: first, objects: { a: '1' } });
    const rollback = await socket.send('POST', '/v1/rollback', { scope: { namespace: ns }, checkpoint_name: legacy });
    expect(rollback.status).toBe(200);
    const deleted = await socket.send('DELETE', '/v1/checkpoints', { namespace: ns, name: legacy });
    expect(deleted.status).toBe(200);
    expect(await names(ns)).toEqual([]);
  });
});

describe('branch names', () => {
  const socket = socketStore();

  it('name a format character by code point when refusing it', async () => {
    const answer = await socket.send('POST', '/v1/apply', {
      scope: { namespace: 'sf2/branch-format', branch: 'main\u200b' },
      documents: [{ key: 'a', content: '1' }],
    });
    expect(answer.status).toBe(400);
    expect((answer.body.error as { message: string }).message).toBe(
      'scope.branch: must contain only letters, digits, ".", "_", "/" and "-"; it contains U+200B, an invisible ' +
        'format character',
    );
  });
});
