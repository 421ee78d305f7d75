import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, WAL_SIZE_LIMIT_BYTES } from '../../src/server/db/connection.js';

/**
 * The WAL file grows to the largest transaction written (a store apply of tens of megabytes) and,
 * without a limit, keeps that size for good: found 89 MB after the largest write, across checkpoints.
 */
describe('the database write-ahead log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-wal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is cut back to its limit once a large transaction is checkpointed', () => {
    const database = openDatabase(join(dir, 'gatehouse.db'));
    try {
      const { sqlite } = database;
      sqlite.exec('CREATE TABLE big (content TEXT)');
      const insert = sqlite.prepare('INSERT INTO big VALUES (?)');
      const chunk = 'x'.repeat(1024 * 1024);
      sqlite.transaction(() => {
        for (let index = 0; index < 40; index += 1) insert.run(chunk);
      })();
      const wal = join(dir, 'gatehouse.db-wal');
      expect(statSync(wal).size).toBeGreaterThan(40 * 1024 * 1024);
      sqlite.pragma('wal_checkpoint(PASSIVE)');
      // The next write after a complete checkpoint starts the log over, and the file is cut back then.
      sqlite.exec('DELETE FROM big');
      sqlite.pragma('wal_checkpoint(PASSIVE)');
      insert.run('small');
      expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    } finally {
      database.close();
    }
  });
});
