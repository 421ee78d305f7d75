import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminWriterTeamStore, TEAM_ADMIN } from './support/socket-store.js';

// A gc deletes rows, and SQLite keeps their pages free inside the file for later writes: the file does
// not shrink. The gc answer says how much is free; `compact` gives it back to the disk.
describe('gc: free space and compact', () => {
  const socket = adminWriterTeamStore();
  const fileBytes = (): number => {
    const db = join(socket.store.dir, 'gatehouse.db');
    const wal = statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    return statSync(db).size + wal;
  };

  it('reports the free bytes a prune leaves, and gives them back with compact', async () => {
    for (let n = 0; n < 12; n++) {
      const written = await socket.send('POST', '/v1/apply', {
        scope: { namespace: 'team/blobs', branch: 'main' },
        documents: [{ key: 'big.txt', content: `${n}`.repeat(500_000) }],
      });
      expect(written.status).toBe(200);
    }
    const preview = await socket.send('POST', '/v1/gc', { keep: 1, dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body.pruned).toBe(11);
    expect(preview.body.free_bytes).toEqual(expect.any(Number));

    const pruned = await socket.send('POST', '/v1/gc', { keep: 1 });
    expect(pruned.body.pruned).toBe(11);
    // Eleven contents of 500 KB and more went, and were swept before the answer.
    expect(pruned.body.free_bytes).toBeGreaterThan(5_000_000);
    expect(pruned.body.compacted_bytes).toBeUndefined();
    const before = fileBytes();

    const compacted = await socket.send('POST', '/v1/gc', { keep: 1, compact: true });
    expect(compacted.status).toBe(200);
    expect(compacted.body.pruned).toBe(0);
    expect(compacted.body.compacted_bytes).toBeGreaterThanOrEqual(pruned.body.free_bytes as number);
    expect(compacted.body.free_bytes).toBe(0);
    expect(fileBytes()).toBeLessThan(before - 5_000_000);

    const state = await socket.send('GET', '/v1/state?namespace=team/blobs');
    expect(state.body.objects).toEqual({ 'big.txt': '11'.repeat(500_000) });
  });

  it('refuses compact with a dry run, and from a token limited to some namespaces', async () => {
    const both = await socket.send('POST', '/v1/gc', { dry_run: true, compact: true });
    expect(both.status).toBe(400);
    expect((both.body.error as { message: string }).message).toMatch(/compact cannot be used with dry_run/);

    const limited = await socket.send('POST', '/v1/gc', { compact: true }, TEAM_ADMIN);
    expect(limited.status).toBe(403);
    expect((limited.body.error as { message: string }).message).toMatch(/compact .* every namespace/);

    const notBoolean = await socket.send('POST', '/v1/gc', { compact: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect((notBoolean.body.error as { message: string }).message).toMatch(/compact must be a boolean/);
  });
});
