import type Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import {
  chmodSync,
  closeSync,
  existsSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { DataFolderInUseError, describeHolder, type HolderWording } from '../server/data-folder/data-folder-in-use.js';
import { holdDataFolder } from '../server/data-folder/hold.js';
import { dataFolderProblem } from '../server/config/data-folder-problem.js';
import { ConfigError } from '../server/config/load.js';
import { SecretBox, SealedValueUnreadable } from '../server/config/secret-box.js';
import { makePrivateDir } from '../server/config/secrets.js';
import {
  findMigrationsDir,
  migrationJournal,
  newerSchemaChanges,
  newestAppliedMigration,
} from '../server/db/connection.js';
import * as schema from '../server/db/schema/index.js';
import { SettingsRepository } from '../server/gateway/model-registry/settings.repository.js';
import { isDatabaseDamaged } from '../server/http/database-errors.js';
import { BackupError, copyDatabase, damageIn } from './database-backup.js';
import { BACKUP_DATABASE } from './database-backup-with-keys.js';
import { planKeyFiles, putBackKeyFiles, type KeyFilesPutBack } from './database-restore-keys.js';

/** Why a restore was not done, in the user's terms; `refused` when the caller's arguments are at fault. */
export class RestoreError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

/** What the restored database means for the data folder's `secrets.key`: a line to print, and whether it needs the user. */
export interface SecretsKeyNote {
  readonly line: string;
  readonly actionNeeded: boolean;
}

/** The schema changes the next start applies to an older restored database. */
export interface SchemaUpgrade {
  readonly migrations: number;
  /** When the newest schema change this version knows was made (YYYY-MM-DD). */
  readonly knownUpTo: string;
}

/** What a restore did. */
export interface RestoreResult {
  readonly database: string;
  /** The files of the replaced database, moved aside (never deleted): the database first, then its -wal, -journal. */
  readonly keptAside: readonly string[];
  /** The -shm file removed (an index of the -wal, rebuilt from it): none when there was none. */
  readonly removed: readonly string[];
  /** When the newest schema change the restored database has was made (YYYY-MM-DD). */
  readonly schemaOf: string;
  /** Set when the restored database is older than this version: the next start upgrades it, one way. */
  readonly upgrade?: SchemaUpgrade;
  readonly secretsKey: SecretsKeyNote;
  /** Set when the folder's hold was taken over from a server that did not give it back (killed, crashed). */
  readonly takeover?: string;
  /** Set for a backup folder (npm run backup --with-keys): what became of its key files. */
  readonly keyFiles?: KeyFilesPutBack;
}

/** A running server would go on writing its own database over the restored one. */
const RESTORE_WORDING: HolderWording = {
  setting: '',
  remedy: 'stop that server first, then restore (it would go on writing over the restored database)',
};

/**
 * Puts the database `backupFile` in place of `<dataDir>/gatehouse.db`, holding the folder as a server
 * does (so none runs on it meanwhile, nor starts). `backupFile` may be a backup folder (npm run backup
 * --with-keys): its key files are put back too, a different one in the data folder only with `force`
 * (kept aside then), before the restored database takes its place. The backup is copied into the
 * folder through SQLite and checked there (`PRAGMA quick_check`, a Gatehouse database this version can run) before
 * anything of the current database changes. The current database and its -wal are moved aside, never
 * deleted: a -wal left under the live name would be applied by SQLite to the restored file and damage
 * it. The restored file appears in one rename, mode 0600.
 */
export async function restoreDatabase(backupFile: string, dataDir: string, force: boolean): Promise<RestoreResult> {
  const named = resolve(backupFile);
  const database = join(dataDir, 'gatehouse.db');
  if (!existsSync(named)) throw new RestoreError(`there is no file ${named}: name a file npm run backup wrote`, true);
  const backupFolder = statSync(named).isDirectory() ? named : undefined;
  const source = backupFolder === undefined ? named : join(backupFolder, BACKUP_DATABASE);
  if (backupFolder !== undefined && !existsSync(source))
    throw new RestoreError(
      `${named} is a folder without ${BACKUP_DATABASE}: name a file npm run backup wrote, or a folder npm run backup --with-keys wrote`,
      true,
    );
  if (!statSync(source).isFile())
    throw new RestoreError(`${source} is not a file: name a file npm run backup wrote`, true);
  if (sameFile(source, database))
    throw new RestoreError(`${source} is the data folder's own database: name a backup of it`, true);
  let hold;
  try {
    // As the start does: the folder is its owner's only, and one a server holds is not touched. Asked
    // first: "pass --force" would be the wrong advice while a server runs on the folder.
    makePrivateDir(dataDir);
    hold = holdDataFolder(dataDir);
  } catch (error) {
    if (error instanceof DataFolderInUseError)
      throw new RestoreError(describeHolder(dataDir, error.holdFile, error.holder, RESTORE_WORDING));
    const problem = dataFolderProblem(error, dataDir, database);
    // A folder the start too would refuse (shared, another user's) is the argument's fault; a failed write is not.
    throw new RestoreError(problem.message, !isErrno(error));
  }
  if (existsSync(database) && !force) {
    hold.release();
    throw new RestoreError(
      `the data folder ${dataDir} already has a database (${database}): pass --force to replace it (it is kept aside, not deleted)`,
      true,
    );
  }
  const partial = join(dataDir, `.gatehouse.db.restore-${process.pid}`);
  try {
    const keySteps =
      backupFolder === undefined
        ? []
        : planKeyFiles(backupFolder, dataDir, force, (message) => new RestoreError(message, true));
    closeSync(openSync(partial, 'wx', 0o600));
    // The provider keys are checked against the secrets.key the folder will have: the backup's, when it holds one.
    const keysFrom = keySteps.some((step) => step.name === 'secrets.key') ? backupFolder : undefined;
    const { schema: checked, secretsKey } = await copyAndCheck(source, partial, dataDir, keysFrom);
    // The umask may have narrowed the create mode; files in the data folder are 0600 exactly.
    chmodSync(partial, 0o600);
    const aside = `.before-restore-${new Date().toISOString().replaceAll(':', '-')}`;
    // Key files first, database last: the restored database appears only once the keys that open it are there.
    const keyFiles = backupFolder === undefined ? undefined : putBackKeyFiles(keySteps, aside);
    const { keptAside, removed } = setAside(database, aside);
    renameSync(partial, database);
    return {
      database,
      keptAside,
      removed,
      ...checked,
      secretsKey,
      ...(hold.takeover ? { takeover: hold.takeover } : {}),
      ...(keyFiles ? { keyFiles } : {}),
    };
  } finally {
    rmSync(partial, { force: true });
    hold.release();
  }
}

/** Copies `source` to `partial` through SQLite (so a -wal beside a copied database counts) and checks the copy. */
async function copyAndCheck(
  source: string,
  partial: string,
  dataDir: string,
  keysFrom: string | undefined,
): Promise<{ schema: CheckedSchema; secretsKey: SecretsKeyNote }> {
  try {
    const copy = await copyDatabase(source, partial);
    try {
      const damage = damageIn(copy);
      if (damage !== undefined) throw damagedBackup(source, damage);
      return { schema: checkSchema(copy, source), secretsKey: secretsKeyNote(copy, dataDir, keysFrom) };
    } finally {
      copy.close();
    }
  } catch (error) {
    if (isDatabaseDamaged(error)) throw damagedBackup(source, `SQLite: ${(error as Error).message}`);
    // The copy's own refusals (a source it cannot read) are the restore's, in the same words.
    if (error instanceof BackupError) throw new RestoreError(error.message);
    throw error;
  }
}

function damagedBackup(source: string, damage: string): RestoreError {
  return new RestoreError(
    `${source} is damaged or not a database (${damage}), so nothing was restored (the data folder is as it was): restore an earlier backup`,
  );
}

/** When a database's newest schema change was made, and what the next start would apply to it. */
type CheckedSchema = Pick<RestoreResult, 'schemaOf' | 'upgrade'>;

/**
 * Refuses what is not a Gatehouse database, and one a newer version migrated (this version would
 * damage it, as the start says when it refuses one). Returns when its newest schema change was made,
 * and for an older one the changes the next start applies (those newer than its newest, as Drizzle's
 * migrator picks them).
 */
function checkSchema(copy: Database.Database, source: string): CheckedSchema {
  const newest = newestAppliedMigration(copy);
  if (newest === undefined)
    throw new RestoreError(
      `${source} is not a Gatehouse database (it has no applied migrations, which every Gatehouse database has): name a file npm run backup wrote`,
      true,
    );
  const journal = migrationJournal(findMigrationsDir());
  const known = Math.max(...journal.map((entry) => entry.when));
  const day = (when: number): string => new Date(when).toISOString().slice(0, 10);
  if (newest > known)
    throw new RestoreError(
      `${source} was upgraded by a newer version of Gatehouse (${newerSchemaChanges(copy, known)}), ` +
        'and this version would damage it: restore it with the newer version',
      true,
    );
  const migrations = journal.filter((entry) => entry.when > newest).length;
  return { schemaOf: day(newest), ...(migrations > 0 ? { upgrade: { migrations, knownUpTo: day(known) } } : {}) };
}

/**
 * Whether the data folder's `secrets.key` opens the provider keys the restored database holds sealed:
 * a start over keys it cannot open stops (provider-keys-at-rest.ts), so the user is told now, in the
 * start's words. Nothing is written: a missing or empty key file is not generated here. `keysFrom` is
 * the backup folder whose secrets.key is put back in the data folder, if any.
 */
function secretsKeyNote(copy: Database.Database, dataDir: string, keysFrom: string | undefined): SecretsKeyNote {
  const box = new SecretBox(keysFrom ?? dataDir);
  const shown = keysFrom === undefined ? box.path : `${join(dataDir, 'secrets.key')} (put back from the backup)`;
  const what = 'the provider keys (api_key) of the deployments saved through PUT /internal/deployments';
  const db = drizzle(copy, { schema });
  const stored = new SettingsRepository(db).get<unknown>('deployments')?.value;
  const keys = (Array.isArray(stored) ? stored : [])
    .map((deployment: unknown) => (deployment as { api_key?: unknown } | null)?.api_key)
    .filter((key): key is string => typeof key === 'string');
  const sealed = keys.filter((key) => SecretBox.isSealed(key)).length;
  if (sealed === 0)
    return {
      line:
        keys.length === 0
          ? `the database holds no provider keys saved through PUT /internal/deployments, so it needs no secrets.key`
          : `the database holds ${what} in plain text (from a version before they were encrypted): the next start encrypts them with ${join(dataDir, 'secrets.key')}`,
      actionNeeded: false,
    };
  const putBack = `put back the secrets.key of the data folder this database came from (copies and backups need both files); until then a start stops, naming the file`;
  const keyFile = existsSync(box.path) ? readFileSync(box.path, 'utf8').trim() : '';
  if (keyFile === '')
    return {
      line: `${shown} is missing, and the database holds ${what}, encrypted with it; ${putBack}`,
      actionNeeded: true,
    };
  try {
    new SettingsRepository(db, box).get('deployments');
  } catch (error) {
    if (error instanceof SealedValueUnreadable)
      return {
        line: `${shown} does not open ${what}: it is not the key file they were encrypted with; ${putBack}`,
        actionNeeded: true,
      };
    if (error instanceof ConfigError) return { line: error.message, actionNeeded: true };
    throw error;
  }
  return { line: `${shown} opens ${what} (${sealed} in the database)`, actionNeeded: false };
}

/**
 * Moves the current database and the logs that belong to it (-wal, -journal) aside under one new name,
 * so SQLite still finds them together; the -shm (only an index of the -wal) is removed. The database is
 * linked before its -wal moves, so `gatehouse.db` is never missing in between.
 */
function setAside(database: string, asideSuffix: string): { keptAside: string[]; removed: string[] } {
  const aside = `${database}${asideSuffix}`;
  const keptAside: string[] = [];
  if (existsSync(database)) {
    try {
      linkSync(database, aside);
    } catch {
      // A file system without hard links: the restored file takes its name in the next instant anyway.
      renameSync(database, aside);
    }
    keptAside.push(aside);
  }
  for (const suffix of ['-wal', '-journal']) {
    if (!existsSync(`${database}${suffix}`)) continue;
    renameSync(`${database}${suffix}`, `${aside}${suffix}`);
    keptAside.push(`${aside}${suffix}`);
  }
  const removed = existsSync(`${database}-shm`) ? [`${database}-shm`] : [];
  for (const file of removed) rmSync(file);
  return { keptAside, removed };
}

/** Whether both paths name one existing file (links and other spellings included). */
function sameFile(a: string, b: string): boolean {
  if (!existsSync(a) || !existsSync(b)) return false;
  const [x, y] = [statSync(a), statSync(b)];
  return x.dev === y.dev && x.ino === y.ino;
}

function isErrno(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
