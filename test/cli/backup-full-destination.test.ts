import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backupDatabase } from '../../src/cli/database-backup.js';

/**
 * A full destination disk cannot be made here without mounting a small file system: SQLite's online
 * backup is made to fail as it does there (SQLITE_FULL, after its rollback journal was created beside
 * the partial copy), and the real backup function handles the rest.
 */
describe('a backup onto a full disk', () => {
  let dir: string;
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the destination folder and the room the copy needs, and leaves no file of the copy behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-backup-full-'));
    mkdirSync(join(dir, 'data'));
    mkdirSync(join(dir, 'out'));
    const source = join(dir, 'data', 'gatehouse.db');
    const db = new Database(source);
    db.exec('CREATE TABLE t (x)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let index = 0; index < 300; index += 1) insert.run('x'.repeat(10_000));
    db.close();

    vi.spyOn(Database.prototype, 'backup').mockImplementation(async (partial: string) => {
      for (const suffix of ['-journal', '-wal', '-shm']) writeFileSync(`${partial}${suffix}`, 'left by SQLite');
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    });

    const target = join(dir, 'out', 'backup.db');
    await expect(backupDatabase(source, target, false)).rejects.toThrow(
      `the disk of ${join(dir, 'out')} is full: the backup needs about 2.9 MB free`,
    );
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
  });
});
