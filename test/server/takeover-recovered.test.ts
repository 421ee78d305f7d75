import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderSuite } from '../support/data-folder-commands.js';

const { tempDir, serve, applyDocument } = dataFolderSuite('gatehouse-takeover-');

/**
 * A start that takes the data folder over from a server that did not stop cleanly says what that means
 * beyond the takeover: the usage rows the killed server still held in memory may be missing, and the
 * contents an interrupted gc listed for deletion are deleted now.
 */
describe('a start after a server was killed', () => {
  it('says usage rows of the last batch interval may be missing and how many leftover contents it deletes', async () => {
    const data = join(tempDir(), 'data');
    const first = await serve(data);
    await applyDocument(first, data, 'kept');
    first.child.kill('SIGKILL');
    await first.exited();
    // What a gc killed before its sweep ended leaves: contents listed as unreferenced, not yet deleted.
    const db = new Database(join(data, 'gatehouse.db'));
    try {
      const insert = db.prepare('INSERT INTO store_blobs (hash, content) VALUES (?, ?)');
      const list = db.prepare('INSERT INTO store_unreferenced_blobs (blob_id) VALUES (?)');
      for (const content of ['old 1', 'old 2', 'old 3'])
        list.run(insert.run(createHash('sha256').update(content).digest(), content).lastInsertRowid);
    } finally {
      db.close();
    }

    const next = await serve(data);
    await expect.poll(() => next.output()).toContain(`from process ${first.child.pid}, which is no longer running`);
    await expect
      .poll(() => next.output())
      .toContain(
        'the previous server did not stop cleanly: usage rows of its last ~50 ms of answered requests may be missing',
      );
    await expect
      .poll(() => next.output())
      .toContain('store: finishing the deletion of 3 unreferenced contents an interrupted gc or branch deletion left');

    const after = await serve(tempDir());
    expect(after.output()).not.toContain('usage rows of its last');
    expect(after.output()).not.toContain('finishing the deletion');
  }, 60_000);
});
