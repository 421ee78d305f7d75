import Database from 'better-sqlite3';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  closeSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderSuite, npmRun, ROOT } from '../support/data-folder-commands.js';
import { failedStart, type HeadlessProcess } from '../support/headless-process.js';

const { tempDir, serve, applyDocument, stateOf } = dataFolderSuite('gatehouse-backup-');

/** Runs `npm run backup -- ...args` from `cwd`, as a user types it. */
const backup = (args: readonly string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}) => npmRun('backup', args, cwd, env);

/** The tables of a database file, read as a restore would find it: the file alone, without a -wal. */
function tablesIn(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A server on a new data folder whose store holds one document, `content`; the folder's parent is `dir`. */
async function serverWithDocument(content: string): Promise<{ dir: string; data: string; server: HeadlessProcess }> {
  const dir = tempDir();
  const data = join(dir, 'data');
  const server = await serve(data);
  await applyDocument(server, data, content);
  return { dir, data, server };
}

/** A new data folder `name` beside `data` with `database` as its gatehouse.db and `data`'s key files. */
function folderFrom(database: string, data: string, name: string): string {
  const folder = join(dirname(data), name);
  mkdirSync(folder, { mode: 0o700 });
  copyFileSync(database, join(folder, 'gatehouse.db'));
  for (const key of ['master.key', 'store.token']) copyFileSync(join(data, key), join(folder, key));
  return folder;
}

describe('npm run backup', () => {
  it('copies a running server database with what is still in its -wal file', async () => {
    const { dir, data } = await serverWithDocument('restart the gateway');
    // The condition the command exists for: the main file alone is an empty install.
    const naive = join(dir, 'naive.db');
    copyFileSync(join(data, 'gatehouse.db'), naive);
    expect(tablesIn(naive)).toBe(0);

    const target = join(dir, 'backup.db');
    const result = await backup([target, '--data-dir', data]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`backup: wrote ${target} (`);
    expect(result.stdout).toContain(`${join(data, 'master.key')}: the master key`);
    expect(statSync(target).mode & 0o777).toBe(0o600);

    const copy = new Database(target, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(copy.prepare("SELECT content FROM store_blobs WHERE content = 'restart the gateway'").all()).toHaveLength(
        1,
      );
    } finally {
      copy.close();
    }

    // Restored as docs/configuration.md says, the copy serves the document.
    const restored = folderFrom(target, data, 'restored');
    const again = await serve(restored);
    const state = (await (await stateOf(again, restored)).json()) as { revision: number; objects: object };
    expect(state).toEqual({ revision: 1, objects: { 'runbook.md': 'restart the gateway' } });
  }, 60_000);

  it('reads a relative file and --data-dir from the folder it is typed in, and finds GATEHOUSE_DATA_DIR', async () => {
    const { dir, data } = await serverWithDocument('relative');
    const result = await backup(['copy.db', '--data-dir', 'data'], dir);
    expect(result.code).toBe(0);
    expect(tablesIn(join(dir, 'copy.db'))).toBeGreaterThan(0);
    const fromEnvironment = await backup([join(dir, 'env.db')], ROOT, { GATEHOUSE_DATA_DIR: data });
    expect(fromEnvironment.code).toBe(0);
    expect(fromEnvironment.stdout).toContain(`a consistent copy of ${join(data, 'gatehouse.db')}`);
  }, 60_000);

  it('refuses to replace an existing file unless --force, and says nothing was written', async () => {
    const { dir, data } = await serverWithDocument('first');
    const target = join(dir, 'backup.db');
    writeFileSync(target, 'an older backup');

    const refused = await backup([target, '--data-dir', data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`backup: ${target} already exists: pass --force to replace it, or name another file\n`);
    expect(readFileSync(target, 'utf8')).toBe('an older backup');

    const forced = await backup([target, '--data-dir', data, '--force']);
    expect(forced.code).toBe(0);
    expect(tablesIn(target)).toBeGreaterThan(0);
  }, 60_000);

  it("refuses a file in the data folder, --force or not, leaving the server's own files as they were", async () => {
    const { data, server } = await serverWithDocument('kept');
    const masterKey = readFileSync(join(data, 'master.key'));
    for (const target of ['gatehouse.db', 'gatehouse.db-wal', 'master.key', 'backup.db']) {
      const refused = await backup([join(data, target), '--data-dir', data, '--force']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`is in the data folder ${data}`);
    }
    expect(readFileSync(join(data, 'master.key'))).toEqual(masterKey);
    expect(((await (await stateOf(server, data)).json()) as { objects: Record<string, string> }).objects).toEqual({
      'runbook.md': 'kept',
    });
  }, 60_000);

  it('creates the folder a first backup goes to, for its owner only, but never inside the data folder', async () => {
    const { dir, data } = await serverWithDocument('first');
    const target = join(dir, 'backups', 'nightly', 'gatehouse.db');
    const made = await backup([target, '--data-dir', data]);
    expect(made.code).toBe(0);
    expect(tablesIn(target)).toBeGreaterThan(0);
    expect(statSync(join(dir, 'backups')).mode & 0o777).toBe(0o700);

    const inside = await backup([join(data, 'kept', 'backup.db'), '--data-dir', data]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain(`is in the data folder ${data}`);
    expect(existsSync(join(data, 'kept'))).toBe(false);
  }, 60_000);

  it('names a data folder without a database instead of writing an empty copy', async () => {
    const dir = tempDir();
    const result = await backup([join(dir, 'backup.db'), '--data-dir', join(dir, 'nothing')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`backup: there is no database at ${join(dir, 'nothing', 'gatehouse.db')}`);
  }, 30_000);
});

describe('a start on a database copied without its -wal file', () => {
  it('warns that the database is new while the keys are from an earlier install, and still starts', async () => {
    const { data } = await serverWithDocument('lost in the copy');
    // What `cp` of a running server's folder without the -wal file gives.
    const copied = folderFrom(join(data, 'gatehouse.db'), data, 'copied');

    const restarted = await serve(copied);
    expect(restarted.output()).toContain(
      `the database ${join(copied, 'gatehouse.db')} is new (it holds no tables) while the data folder's master.key is from an earlier install`,
    );
    expect(restarted.output()).toContain('restore a copy made with npm run backup');
    expect(((await (await stateOf(restarted, copied)).json()) as { revision: number }).revision).toBe(0);
  }, 60_000);

  it('says nothing on a first start, which generates its keys', async () => {
    const dir = tempDir();
    const server = await serve(join(dir, 'data'));
    expect(server.output()).not.toContain('is new (it holds no tables)');
  }, 30_000);
});

describe('a damaged database', () => {
  it('that a start cannot open is named with the way back: a backup, then .recover, only then moving it aside', async () => {
    const dir = tempDir();
    const file = join(dir, 'gatehouse.db');
    writeFileSync(file, 'these bytes are not a SQLite database, not even its header\n');
    const failure = await failedStart({ GATEHOUSE_DATA_DIR: dir });
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      `gatehouse: failed to start: cannot open the database ${file} (GATEHOUSE_DATA_DIR or server.data_dir): file is not a database: ` +
        `the file is damaged; restore the latest backup (npm run backup makes them), or try to recover it with sqlite3 "${file}" ".recover" | sqlite3 recovered.db ` +
        'and put recovered.db in its place; only then move it aside to start with an empty database (docs/configuration.md#backups)\n',
    );
  }, 30_000);

  it('answers 503 saying the file is damaged, pointing to the backups section', async () => {
    const { dir, data, server } = await serverWithDocument('soon unreadable');
    // A backup is one self-contained file: the page overwritten below is the one SQLite reads.
    const backupCopy = join(dir, 'copy.db');
    expect((await backup([backupCopy, '--data-dir', data])).code).toBe(0);
    server.child.kill('SIGKILL');
    await server.exited();
    const damaged = folderFrom(backupCopy, data, 'damaged');
    corruptTablePage(join(damaged, 'gatehouse.db'), 'store_blobs');

    const restarted = await serve(damaged);
    const response = await stateOf(restarted, damaged);
    expect(response.status).toBe(503);
    expect(response.headers.get('x-should-retry')).toBe('false');
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('service_unavailable');
    expect(body.error.message).toMatch(/^the database file \(gatehouse\.db in the data folder\) is damaged/);
    expect(body.error.message).toContain('docs/configuration.md#backups');
    expect(body.error.message).toContain('SQLITE_CORRUPT');
    // Logged once at error for the process, not once per request.
    expect((await stateOf(restarted, damaged)).status).toBe(503);
    const errorLines = restarted
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":50') && line.includes('the database file is damaged (SQLITE_CORRUPT'));
    expect(errorLines).toHaveLength(1);
  }, 60_000);
});

/** Overwrites the header of `table`'s root page with a page type SQLite does not know: reading it is SQLITE_CORRUPT. */
function corruptTablePage(file: string, table: string): void {
  const db = new Database(file, { readonly: true });
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as {
    rootpage: number;
  };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(16, 0xff), 0, 16, (rootpage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
