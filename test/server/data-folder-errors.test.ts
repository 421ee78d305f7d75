import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMigrationsDir, migrationJournal, openDatabase } from '../../src/server/db/connection.js';
import { failedStart } from '../support/headless-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-folder-'));
  dirs.push(dir);
  return dir;
}

describe('a data folder that cannot be used', () => {
  it('whose database is not one names the file, the setting and what to do', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gatehouse.db'), 'these bytes are not a SQLite database, not even its header\n');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      `gatehouse: failed to start: cannot open the database ${join(dir, 'gatehouse.db')} (GATEHOUSE_DATA_DIR or server.data_dir): ` +
        `file is not a database: the file is damaged; restore the latest backup (npm run backup makes them), or try to recover it with sqlite3 "${join(dir, 'gatehouse.db')}" ".recover" | sqlite3 recovered.db and put recovered.db in its place; only then move it aside to start with an empty database (docs/configuration.md#backups)\n`,
    );
  });

  it('whose database another process holds locked says so, and what to do', async () => {
    const dir = tempDir();
    // As a server of an older version, still running on the folder, would hold it in a long write.
    const other = new Database(join(dir, 'gatehouse.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir }, 20_000);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toBe(
        `gatehouse: failed to start: cannot open the database ${join(dir, 'gatehouse.db')} (GATEHOUSE_DATA_DIR or server.data_dir): ` +
          'database is locked: another process holds its write lock (a Gatehouse server of an older version still running on this folder, a sqlite3 shell, a backup); stop it and start again\n',
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 30_000);

  it('whose database a newer version upgraded is refused untouched, naming what to do', async () => {
    const dir = tempDir();
    const file = join(dir, 'gatehouse.db');
    openDatabase(file).close();
    // A schema change this build does not have, as a newer version leaves behind.
    const newer = new Database(file);
    const future = Date.UTC(2099, 0, 2, 22, 57, 41);
    const insert = newer.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)');
    insert.run('from-a-newer-version', future - 3_600_000);
    insert.run('from-a-newer-version-too', future);
    newer.close();
    // Several schema changes are often made on one day: the times go to the minute.
    const known = Math.max(...migrationJournal(findMigrationsDir()).map((entry) => entry.when));
    const knownMinute = `${new Date(known).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      new RegExp(
        `^gatehouse: failed to start: cannot use the data folder ${dir} \\(GATEHOUSE_DATA_DIR or server\\.data_dir\\): ` +
          `its database was upgraded by a newer version of Gatehouse \\(it has 2 schema changes this version lacks, the newest made 2099-01-02 22:57 UTC; this version's newest was made ${knownMinute}\\), ` +
          'and this version would damage it: start the newer version, or a copy of the data folder made before that upgrade\\n$',
      ),
    );
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT count(*) AS n FROM __drizzle_migrations WHERE created_at = ?').get(future)).toEqual({
      n: 1,
    });
    after.close();
  });

  it('below a file names the folder and the setting', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'state'), '');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: join(dir, 'state', 'gatehouse') });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      new RegExp(
        `^gatehouse: failed to start: cannot use the data folder ${join(dir, 'state', 'gatehouse')} \\(GATEHOUSE_DATA_DIR or server\\.data_dir\\): ENOTDIR: .*: part of that path is a file, not a folder\\n$`,
      ),
    );
  });
});
