import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BackupError, refuseSourceOrDestination, writeCheckedCopy } from './database-backup.js';

/**
 * The files of a data folder the database alone does not hold, as the server names them there: the
 * key the saved provider keys are sealed with, then the generated admin and store secrets.
 */
export const KEY_FILES = ['secrets.key', 'master.key', 'store.token'] as const;

/** The name of the database in a backup folder, as in a data folder: restoring is putting the folder's files back. */
export const BACKUP_DATABASE = 'gatehouse.db';

/** What a backup with its key files wrote. */
export interface KeyedBackupResult {
  /** The backup folder. */
  readonly folder: string;
  readonly database: string;
  readonly bytes: number;
  /** The key files copied, by name, in the order of `KEY_FILES`. */
  readonly keyFiles: readonly string[];
}

/**
 * Writes `<target>/` (mode 0700) holding a checked copy of `<dataDir>/gatehouse.db` and the key files
 * the data folder has (each 0600). It is assembled in a hidden folder beside `target` and appears in
 * one rename, whole or not at all: an existing backup is replaced only with `force`, and only when it
 * is itself such a folder (or a file), never a folder holding anything else.
 */
export async function backupWithKeys(dataDir: string, target: string, force: boolean): Promise<KeyedBackupResult> {
  const destination = resolve(target);
  const source = join(dataDir, BACKUP_DATABASE);
  refuseSourceOrDestination(source, destination, force, 'folder');
  if (existsSync(destination)) refuseUnlikeBackup(destination);
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  const partial = join(dirname(destination), `.${basename(destination)}.partial-${process.pid}`);
  mkdirSync(partial, { mode: 0o700 });
  try {
    // The umask may have narrowed the create mode; a backup of secrets is its owner's only, exactly.
    chmodSync(partial, 0o700);
    const database = join(partial, BACKUP_DATABASE);
    closeSync(openSync(database, 'wx', 0o600));
    await writeCheckedCopy(source, database, join(destination, BACKUP_DATABASE));
    const keyFiles = KEY_FILES.filter((name) => existsSync(join(dataDir, name)));
    for (const name of keyFiles) {
      copyFileSync(join(dataDir, name), join(partial, name));
      chmodSync(join(partial, name), 0o600);
    }
    publishFolder(partial, destination);
    return {
      folder: destination,
      database: join(destination, BACKUP_DATABASE),
      bytes: statSync(join(destination, BACKUP_DATABASE)).size,
      keyFiles,
    };
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * `--force` replaces a backup: a file, or a folder holding only what this command writes. Any other
 * folder (a typo naming `~/backups` itself, a data folder) would be deleted whole by the replacement.
 */
function refuseUnlikeBackup(destination: string): void {
  if (!statSync(destination).isDirectory()) return;
  const known = new Set<string>([BACKUP_DATABASE, ...KEY_FILES]);
  const others = readdirSync(destination).filter((name) => !known.has(name));
  if (others.length > 0)
    throw new BackupError(
      `${destination} is a folder that is not a backup npm run backup --with-keys wrote (it holds ${others.sort().join(', ')}), so --force does not replace it: name another folder`,
      true,
    );
}

/**
 * Puts the finished folder in place. An existing backup is moved aside first and deleted only once the
 * new one has its name; without `force` the caller refused an existing one already, and a rename
 * onto a folder with files in it fails rather than replacing it.
 */
function publishFolder(partial: string, destination: string): void {
  if (existsSync(destination)) {
    const replaced = join(dirname(destination), `.${basename(destination)}.replaced-${process.pid}`);
    renameSync(destination, replaced);
    try {
      renameSync(partial, destination);
    } catch (error) {
      renameSync(replaced, destination);
      throw error;
    }
    rmSync(replaced, { recursive: true, force: true });
    return;
  }
  try {
    renameSync(partial, destination);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file or a folder with files that appeared meanwhile: a rename never replaces either.
    if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR')
      throw new BackupError(`${destination} already exists: pass --force to replace it, or name another folder`);
    throw error;
  }
}
