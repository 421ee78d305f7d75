import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderSuite, npmRun } from '../support/data-folder-commands.js';
import { openDatabase } from '../../src/server/db/connection.js';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';

const { cleanups, tempDir, serve, applyDocument, stateOf } = dataFolderSuite('gatehouse-restore-');

async function documentOf(server: HeadlessProcess, dataDir: string): Promise<unknown> {
  const response = await stateOf(server, dataDir);
  return ((await response.json()) as { objects: Record<string, string> }).objects['runbook.md'];
}

/** A data folder whose server has written `content`, its backup (made then), and the server still running. */
async function folderWithBackup(
  content: string,
): Promise<{ dir: string; data: string; backup: string; server: HeadlessProcess }> {
  const dir = tempDir();
  const data = join(dir, 'data');
  const server = await serve(data);
  await applyDocument(server, data, content);
  const backup = join(dir, 'backup.db');
  expect((await npmRun('backup', [backup, '--data-dir', data])).code).toBe(0);
  return { dir, data, backup, server };
}

/** The folder's files; a killed server's hold file is left out (the restore takes it over and gives it back, as a start would). */
function filesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name !== 'gatehouse.lock')
    .sort();
}

describe('npm run restore', () => {
  it('puts a backup in place of a crashed server database, keeps the old one and its -wal aside, and the start serves the backup', async () => {
    const { data, backup, server } = await folderWithBackup('from the backup');
    await applyDocument(server, data, 'written after the backup');
    // A crash leaves the later writes in the -wal: restored under the live name it would be applied to the backup.
    server.child.kill('SIGKILL');
    await server.exited();
    expect(existsSync(join(data, 'gatehouse.db-wal'))).toBe(true);

    const restored = await npmRun('restore', [backup, '--data-dir', data, '--force']);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`restore: data folder ${data} (--data-dir)`);
    expect(restored.stdout).toContain(`restore: took over the data folder ${data} from process ${server.child.pid}`);
    expect(restored.stdout).toContain(`restore: restored ${backup} as ${join(data, 'gatehouse.db')} (mode 0600)`);
    expect(restored.stdout).toContain(
      'restore: the database holds no provider keys saved through PUT /internal/deployments, so it needs no secrets.key',
    );
    const aside = filesIn(data).find((name) => /^gatehouse\.db\.before-restore-[\dTZ.-]+$/.test(name));
    expect(aside).toBeDefined();
    expect(restored.stdout).toContain(
      `kept the replaced database aside (this command never deletes it): ${join(data, aside!)}, ${join(data, `${aside}-wal`)}`,
    );
    expect(existsSync(join(data, 'gatehouse.db-wal'))).toBe(false);
    expect(existsSync(join(data, 'gatehouse.db-shm'))).toBe(false);
    expect(existsSync(join(data, 'gatehouse.lock'))).toBe(false);
    expect(statSync(join(data, 'gatehouse.db')).mode & 0o777).toBe(0o600);

    // The replaced database, with its -wal beside it under the new name, still holds the later write.
    const old = new Database(join(data, aside!), { readonly: true });
    try {
      expect(
        old.prepare("SELECT count(*) AS n FROM store_blobs WHERE content = 'written after the backup'").get(),
      ).toEqual({ n: 1 });
    } finally {
      old.close();
    }

    const again = await serve(data);
    expect(await documentOf(again, data)).toBe('from the backup');
  }, 90_000);

  it('refuses while a server holds the folder, changing nothing, with or without --force', async () => {
    const { data, backup, server } = await folderWithBackup('live');
    const before = filesIn(data);
    // Without --force too: "pass --force" would be the wrong advice while the server runs.
    for (const flags of [['--force'], []]) {
      const refused = await npmRun('restore', [backup, '--data-dir', data, ...flags]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `restore: the data folder ${data} is in use by another Gatehouse server, process ${server.child.pid}`,
      );
      expect(refused.stderr).toContain('stop that server first, then restore');
    }
    expect(filesIn(data)).toEqual(before);
    expect(await documentOf(server, data)).toBe('live');
  }, 60_000);

  it('refuses to replace a database without --force, and a database is not kept aside then', async () => {
    const { data, backup, server } = await folderWithBackup('kept');
    server.child.kill('SIGKILL');
    await server.exited();
    const before = filesIn(data);
    const refused = await npmRun('restore', [backup, '--data-dir', data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `restore: the data folder ${data} already has a database (${join(data, 'gatehouse.db')}): pass --force to replace it (it is kept aside, not deleted)\n`,
    );
    expect(filesIn(data)).toEqual(before);
  }, 60_000);

  it('refuses a damaged backup and a file that is not a database (exit 1), leaving the folder as it was', async () => {
    const { dir, data, backup, server } = await folderWithBackup('intact');
    server.child.kill('SIGKILL');
    await server.exited();
    const before = filesIn(data);
    const copy = new Database(backup, { readonly: true });
    const { rootpage } = copy.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'store_blobs'").get() as {
      rootpage: number;
    };
    const pageSize = copy.pragma('page_size', { simple: true }) as number;
    copy.close();
    const fd = openSync(backup, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);

    const damaged = await npmRun('restore', [backup, '--data-dir', data, '--force']);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(`restore: ${backup} is damaged or not a database (PRAGMA quick_check: `);
    expect(damaged.stderr).toContain('so nothing was restored (the data folder is as it was)');

    const text = join(dir, 'notes.db');
    writeFileSync(
      text,
      'these are notes, not a database, but long enough to look like a file with a header'.repeat(20),
    );
    const notDatabase = await npmRun('restore', [text, '--data-dir', data, '--force']);
    expect(notDatabase.code).toBe(1);
    expect(notDatabase.stderr).toContain(
      `restore: ${text} is damaged or not a database (SQLite: file is not a database)`,
    );
    expect(filesIn(data)).toEqual(before);
  }, 60_000);

  it('refuses a SQLite database that is not a Gatehouse one (exit 2), into a new folder as well', async () => {
    const dir = tempDir();
    const other = join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)');
    db.close();
    const data = join(dir, 'new-folder');
    mkdirSync(data);
    const refused = await npmRun('restore', [other, '--data-dir', data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `restore: ${other} is not a Gatehouse database (it has no applied migrations, which every Gatehouse database has): name a file npm run backup wrote\n`,
    );
    expect(filesIn(data)).toEqual([]);

    // A Gatehouse database a newer version migrated: refused as the start refuses it.
    const newer = join(dir, 'newer.db');
    openDatabase(newer).close();
    const upgraded = new Database(newer);
    upgraded.exec(
      'UPDATE __drizzle_migrations SET created_at = created_at + 1000 * 86400000; PRAGMA wal_checkpoint(TRUNCATE)',
    );
    upgraded.close();
    const fromNewer = await npmRun('restore', [newer, '--data-dir', data]);
    expect(fromNewer.code).toBe(2);
    expect(fromNewer.stderr).toMatch(
      /^restore: .*newer\.db was upgraded by a newer version of Gatehouse \(it has \d+ schema changes this version lacks, the newest made \d{4}-\d\d-\d\d \d\d:\d\d UTC; this version's newest was made \d{4}-\d\d-\d\d \d\d:\d\d UTC\), and this version would damage it: restore it with the newer version\n$/,
    );
    expect(filesIn(data)).toEqual([]);
  }, 30_000);

  it("says whether the folder's secrets.key opens the backup's provider keys, in the start's words", async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const master = 'gk-master-restore-test-0123456789abcdef';
    const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: data, PROXY_MASTER_KEY: master });
    cleanups.push(() => server.child.kill('SIGKILL'));
    const saved = await fetch(`${server.gatewayUrl}/internal/deployments`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        deployments: [
          {
            id: 'team',
            model: 'gpt-4o-mini',
            provider: 'openai',
            base_url: 'http://127.0.0.1:19450/v1',
            api_key: 'sk-team-0123456789',
          },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    const backup = join(dir, 'backup.db');
    expect((await npmRun('backup', [backup, '--data-dir', data])).code).toBe(0);
    const what = 'the provider keys (api_key) of the deployments saved through PUT /internal/deployments';

    const elsewhere = join(dir, 'elsewhere');
    const missing = await npmRun('restore', [backup, '--data-dir', elsewhere]);
    expect(missing.code).toBe(0);
    expect(missing.stderr).toBe(
      `restore: ${join(elsewhere, 'secrets.key')} is missing, and the database holds ${what}, encrypted with it; ` +
        'put back the secrets.key of the data folder this database came from (copies and backups need both files); until then a start stops, naming the file\n',
    );
    expect(existsSync(join(elsewhere, 'secrets.key'))).toBe(false);

    writeFileSync(join(elsewhere, 'secrets.key'), 'secrets-another-folders-key-0123456789abcdef\n', { mode: 0o600 });
    const wrong = await npmRun('restore', [backup, '--data-dir', elsewhere, '--force']);
    expect(wrong.code).toBe(0);
    expect(wrong.stderr).toContain(
      `${join(elsewhere, 'secrets.key')} does not open ${what}: it is not the key file they were encrypted with`,
    );
    expect(wrong.stderr).toContain('(the database kept aside needs the current one: keep a copy of it)');

    writeFileSync(join(elsewhere, 'secrets.key'), readFileSync(join(data, 'secrets.key')));
    const opens = await npmRun('restore', [backup, '--data-dir', elsewhere, '--force']);
    expect(opens.stderr).toBe('');
    expect(opens.stdout).toContain(`restore: ${join(elsewhere, 'secrets.key')} opens ${what} (1 in the database)`);
  }, 90_000);
});
