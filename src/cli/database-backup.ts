import Database from 'better-sqlite3';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isDatabaseDamaged } from '../server/http/database-errors.js';

/** A backup that cannot be made: the message says why, in the user's terms; `refused` when the caller's arguments are at fault. */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

/** What a backup wrote. */
export interface BackupResult {
  readonly target: string;
  readonly bytes: number;
}

/**
 * Copies the database `source` to `target` with SQLite's online backup: the pages the server has in
 * its -wal file are read through SQLite, so the copy holds every committed write, and a write the
 * server makes meanwhile restarts the copy rather than tearing it. The copy is one self-contained file
 * (rollback journal, not WAL), readable only by its owner, and appears only once complete and checked
 * with `PRAGMA quick_check`: a failure, or a damaged source, leaves an existing `target` as it was.
 */
export async function backupDatabase(source: string, target: string, force: boolean): Promise<BackupResult> {
  const destination = resolve(target);
  refuseSourceOrDestination(source, destination, force, 'file');
  // A first backup into `~/backups/` creates it (as `mkdir -p`), for its owner only, as the copy is.
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  const partial = join(dirname(destination), `.${basename(destination)}.partial-${process.pid}`);
  // The copy holds the provider keys (sealed), API key hashes and every document: its owner's only.
  closeSync(openSync(partial, 'wx', 0o600));
  try {
    await writeCheckedCopy(source, partial, destination);
    publish(partial, destination, force);
  } finally {
    // A copy that failed midway may have left its rollback journal (or a -wal and -shm) beside it:
    // hidden files that would pile up in the destination folder, one per failed run.
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  }
  return { target: destination, bytes: statSync(destination).size };
}

/**
 * Refuses, before anything is written, a data folder without a database, an existing `destination`
 * without `force`, and a destination inside the data folder. `kind` is what the destination is, as
 * the advice names it.
 */
export function refuseSourceOrDestination(
  source: string,
  destination: string,
  force: boolean,
  kind: 'file' | 'folder',
): void {
  if (!existsSync(source))
    throw new BackupError(
      `there is no database at ${source}: name the data folder with --data-dir or GATEHOUSE_DATA_DIR`,
      true,
    );
  if (existsSync(destination) && !force)
    throw new BackupError(`${destination} already exists: pass --force to replace it, or name another ${kind}`, true);
  // Judged by the nearest folder that exists: one to be created inside the data folder is refused too.
  if (insideFolder(existingAncestor(kind === 'file' ? dirname(destination) : destination), dirname(source)))
    throw new BackupError(
      `${destination} is in the data folder ${dirname(source)}: a backup there could replace the server's own files (the database, its -wal, secrets.key) and would be lost with the folder; name a ${kind} elsewhere`,
      true,
    );
}

/**
 * Copies the database `source` into the existing empty file `partial` and checks the copy; a damaged
 * source or a full disk is refused naming `destination`, the file the copy is for.
 */
export async function writeCheckedCopy(source: string, partial: string, destination: string): Promise<void> {
  try {
    const copy = await copyDatabase(source, partial);
    try {
      // The online backup copies pages as they are, damaged ones too: a copy of a damaged file would
      // replace the last good backup (a rotating `--force` job) while it says nothing is wrong.
      const damage = damageIn(copy);
      if (damage !== undefined) throw damagedSource(source, destination, damage);
    } finally {
      copy.close();
    }
  } catch (error) {
    if (isDatabaseDamaged(error)) throw damagedSource(source, destination, `SQLite: ${(error as Error).message}`);
    if (isDestinationFull(error)) throw destinationFull(source, destination);
    throw error;
  }
}

/**
 * Copies the database `source` into the existing empty file `partial` through SQLite (so what is still
 * in its -wal counts) and returns the copy open, as one self-contained file (rollback journal, not
 * WAL). The source is opened read-only: a copy never changes it.
 */
export async function copyDatabase(source: string, partial: string): Promise<Database.Database> {
  if (folderWritable(dirname(source))) {
    const from = new Database(source, { readonly: true, fileMustExist: true });
    try {
      await from.backup(partial);
    } finally {
      from.close();
    }
  } else copyUnwritableFolder(source, partial);
  const copy = new Database(partial);
  try {
    // A WAL-mode copy would need its own -wal file to be whole when opened and written.
    copy.pragma('journal_mode = DELETE');
    return copy;
  } catch (error) {
    copy.close();
    throw error;
  }
}

/** Whether this process may create files in `folder` (SQLite's -shm beside the database). */
function folderWritable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A database in a folder this process cannot write (a read-only mount or snapshot, a folder owned by
 * someone else): SQLite cannot open a WAL-mode file there even read-only, for want of its -shm file,
 * and this build of better-sqlite3 takes no `immutable=1` URI. Without a -wal file the database file
 * holds every committed write (a clean stop checkpoints and removes it), and no server runs on a
 * folder it cannot write, so a byte copy is the whole database; the copy is checked as any other.
 */
function copyUnwritableFolder(source: string, partial: string): void {
  if (existsSync(`${source}-wal`))
    throw new BackupError(
      `cannot read ${source}: its folder ${dirname(source)} cannot be written (a read-only mount or snapshot, or another user's folder), and SQLite needs to write there (its -shm file) to read the database's -wal file, which holds writes not yet in the database file; run this as the folder's owner, or copy the folder (all gatehouse.db* files) somewhere writable and name that copy`,
    );
  copyFileSync(source, partial);
  // copyFileSync gives the copy the source's mode; it holds what the source holds.
  chmodSync(partial, 0o600);
}

/**
 * What `PRAGMA quick_check` finds wrong in `copy`, undefined when nothing. The check reads every page
 * (not the index contents `integrity_check` also compares). SQLite can stop it at the first damaged
 * page with SQLITE_CORRUPT rather than listing problems: each table is then checked on its own, to name
 * the damaged ones.
 */
export function damageIn(copy: Database.Database): string | undefined {
  try {
    const problems = (copy.pragma('quick_check(5)') as Array<{ quick_check: string }>).map((row) => row.quick_check);
    return problems.length === 1 && problems[0] === 'ok' ? undefined : `PRAGMA quick_check: ${problems.join('; ')}`;
  } catch (error) {
    if (!isDatabaseDamaged(error)) throw error;
  }
  const tables = copy.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
  const damaged = tables.filter((table) => {
    try {
      return copy.pragma(`quick_check("${table.replaceAll('"', '""')}")`, { simple: true }) !== 'ok';
    } catch (error) {
      if (isDatabaseDamaged(error)) return true;
      throw error;
    }
  });
  return damaged.length === 0
    ? 'PRAGMA quick_check: database disk image is malformed'
    : `PRAGMA quick_check: damaged pages in the table${damaged.length === 1 ? '' : 's'} ${damaged.join(', ')}`;
}

/** The refusal of a damaged source, with the way back: no backup of it helps, its last good one or `.recover` do. */
function damagedSource(source: string, destination: string, damage: string): BackupError {
  return new BackupError(
    `${source} is damaged (${damage}), so no backup was written (${destination} is as it was, if it existed): ` +
      `keep your existing backups, restore the latest good one, or recover what SQLite still reads with the server stopped: ` +
      `sqlite3 "${source}" ".recover" | sqlite3 recovered.db (docs/configuration.md#backups)`,
  );
}

/** Whether SQLite said the disk is full: only the copy writes, so it is the destination's disk. */
function isDestinationFull(error: unknown): boolean {
  return error instanceof Error && /^SQLITE_FULL(_|$)/.test(String((error as Error & { code?: unknown }).code));
}

/** The refusal of a full destination, naming its folder and the room a copy needs (about the database's size). */
function destinationFull(source: string, destination: string): BackupError {
  const bytes = [source, `${source}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
  return new BackupError(
    `the disk of ${dirname(destination)} is full: the backup needs about ${(bytes / 1_048_576).toFixed(1)} MB free ` +
      `(the size of ${source}); nothing was written (${destination} is as it was, if it existed)`,
  );
}

/** Puts the finished copy in place; without `force`, never over a file that appeared meanwhile. */
function publish(partial: string, destination: string, force: boolean): void {
  if (force) {
    renameSync(partial, destination);
    return;
  }
  try {
    linkSync(partial, destination);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new BackupError(`${destination} already exists: pass --force to replace it, or name another file`);
    throw error;
  }
}

/** `folder`, or its nearest parent that exists. */
function existingAncestor(folder: string): string {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** Whether `folder` is `parent` or below it, links resolved (so another spelling of the same folder counts). */
function insideFolder(folder: string, parent: string): boolean {
  const path = relative(realpathSync(parent), realpathSync(folder));
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}
