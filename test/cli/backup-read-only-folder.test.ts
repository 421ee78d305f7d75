import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npmRun } from '../support/data-folder-commands.js';

/**
 * A data folder this user cannot write: for another user, a folder at 0500. Root writes there anyway,
 * so as root the folder is a tmpfs remounted read-only (as a snapshot or a mounted backup medium is);
 * where root may not mount one, the test is skipped.
 */
const asRoot = process.getuid?.() === 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function unwritableFolder(build: (folder: string) => void): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-backup-ro-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const folder = join(dir, 'data');
  mkdirSync(folder, { mode: 0o700 });
  if (!asRoot) {
    build(folder);
    chmodSync(folder, 0o500);
    cleanups.push(() => chmodSync(folder, 0o700));
    return folder;
  }
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  cleanups.push(() => execFileSync('umount', [folder], { stdio: 'ignore' }));
  build(folder);
  execFileSync('mount', ['-o', 'remount,ro', folder], { stdio: 'ignore' });
  return folder;
}

/** A WAL-mode database as the server leaves it: after a clean stop (the file alone), or a crash (with its -wal). */
function database(folder: string, crashed: boolean): void {
  const made = mkdtempSync(join(tmpdir(), 'gatehouse-backup-ro-source-'));
  cleanups.push(() => rmSync(made, { recursive: true, force: true }));
  const db = new Database(join(made, 'gatehouse.db'));
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('kept')");
  // Copied while open, the last write is in the -wal only, as a crash leaves it; a close checkpoints it away.
  if (!crashed) db.close();
  for (const suffix of crashed ? ['', '-wal'] : [''])
    copyFileSync(join(made, `gatehouse.db${suffix}`), join(folder, `gatehouse.db${suffix}`));
  if (crashed) db.close();
}

describe('npm run backup from a data folder it cannot write', () => {
  it('copies a cleanly stopped database (no -wal), as a checked file readable by its owner only', async (context) => {
    const folder = unwritableFolder((dir) => database(dir, false));
    if (folder === undefined) return context.skip();
    const target = join(folder, '..', 'out', 'copy.db');
    const run = await npmRun('backup', [target, '--data-dir', folder]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const copy = new Database(target, { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.prepare('SELECT x FROM t').pluck().all()).toEqual(['kept']);
    copy.close();
    expect(readdirSync(folder)).toEqual(['gatehouse.db']);
  });

  it('names the cause when a -wal file holds writes SQLite cannot read without writing there', async (context) => {
    const folder = unwritableFolder((dir) => database(dir, true));
    if (folder === undefined) return context.skip();
    const target = join(folder, '..', 'out', 'copy.db');
    const run = await npmRun('backup', [target, '--data-dir', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`its folder ${folder} cannot be written`);
    expect(run.stderr).toContain('-wal file, which holds writes not yet in the database file');
    expect(existsSync(target)).toBe(false);
  });
});
