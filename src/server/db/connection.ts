import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index.js';
import { makePrivateDir, makePrivateFile } from '../config/secrets.js';
import { DatabaseLockWatch } from './lock-watch.js';
import { serverLogger } from '../http/logger.js';
import { warnOfNewDatabaseAmongOldKeys } from './new-database-check.js';
import { damageGone, isDamageCode } from './damage-check.js';

/** The typed Drizzle handle over the whole schema. */
export type Db = BetterSQLite3Database<typeof schema>;

/** An open database: the raw better-sqlite3 handle (for prepared statements on hot paths) and Drizzle. */
export interface DatabaseHandle {
  readonly sqlite: Database.Database;
  readonly db: Db;
  readonly file: string;
  /** Whether another process holds the write lock; every connection to the file is registered with it. */
  readonly lock: DatabaseLockWatch;
  /**
   * The SQLite code of the last failure that said the database cannot be written or read (a full disk,
   * an I/O error, a damaged file), until a probe write succeeds (for a damaged file, a full check
   * first): readiness reports the database unavailable meanwhile.
   */
  readonly failure: string | undefined;
  /** Remembers a failure of that kind (the HTTP edge notes each one it answers). */
  noteFailure(code: string): void;
  /** Forgets it: a probe write went through. */
  forgetFailure(): void;
  close(): void;
}

/** Finds `drizzle/` by walking up from this module (works from src/, out/server and the bundled app). */
export function findMigrationsDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the drizzle/ migrations folder above ${start}`);
    dir = parent;
  }
}

/**
 * Keeps the database (which holds provider keys) readable by its owner only. SQLite gives the -wal
 * and -shm files the database file's mode, so the file is created 0600 before SQLite opens it.
 */
function protectDatabaseFiles(file: string): void {
  makePrivateDir(dirname(resolve(file)));
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) makePrivateFile(path);
}

/** Bytes the WAL file is cut back to after a checkpoint (see openDatabase). */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Opens (creating if needed) the SQLite database with WAL and full durability, and applies pending migrations.
 */
export function openDatabase(
  file: string,
  migrationsDir: string = findMigrationsDir(),
  // The desktop app runs on Electron's ABI and loads its own build of the native module.
  nativeBinding: string | undefined = process.env.GATEHOUSE_SQLITE_BINDING || undefined,
): DatabaseHandle {
  if (file !== ':memory:') protectDatabaseFiles(file);
  const sqlite = new Database(file, nativeBinding ? { nativeBinding } : {});
  sqlite.pragma('journal_mode = WAL');
  // FULL: an acknowledged write survives power loss, not only a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // The WAL file grows to the largest transaction (a 60 MB apply) and otherwise stays that size for
  // good: past a checkpoint it is cut back to this.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // The busy timeout: 5 s, and shorter while another process is known to hold the lock.
  const lock = new DatabaseLockWatch();
  lock.add(sqlite);
  // Memory-mapped reads: large state reads (10,000 documents) skip a copy per page.
  sqlite.pragma('mmap_size = 268435456');
  const db = drizzle(sqlite, { schema });
  try {
    refuseNewerSchema(sqlite, migrationsDir);
    // Before the migrations create the tables it looks for.
    if (file !== ':memory:') warnOfNewDatabaseAmongOldKeys(sqlite, file);
  } catch (error) {
    lock.close();
    sqlite.close();
    throw error;
  }
  const pending = file === ':memory:' ? [] : pendingMigrations(sqlite, migrationsDir);
  migrate(db, { migrationsFolder: migrationsDir });
  if (pending.length > 0) logAppliedMigrations(file, pending);
  let failure: string | undefined;
  return {
    sqlite,
    db,
    file,
    lock,
    get failure() {
      return failure;
    },
    noteFailure: (code) => {
      // Damage outlasts a full disk or an I/O error noted after it: clearing those proves nothing of it.
      if (!isDamageCode(failure) || isDamageCode(code)) failure = code;
    },
    forgetFailure: () => {
      failure = undefined;
    },
    close: () => {
      lock.close();
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Refuses a database a newer version of Gatehouse has migrated: this version would run on tables it
 * does not know (failing on some requests) and write what the newer one does not expect (contents it
 * would later collect as garbage, rows without the newer columns' values). Drizzle's migrator applies
 * only migrations newer than the database's last and says nothing of those it does not have.
 */
function refuseNewerSchema(sqlite: Database.Database, migrationsDir: string): void {
  const newest = newestAppliedMigration(sqlite);
  const known = Math.max(...migrationJournal(migrationsDir).map((entry) => entry.when));
  if (newest === undefined || newest <= known) return;
  throw new Error(
    `its database was upgraded by a newer version of Gatehouse (${newerSchemaChanges(sqlite, known)}), and this version would damage it: ` +
      'start the newer version, or a copy of the data folder made before that upgrade',
  );
}

/**
 * What a database has of schema changes this version lacks (those newer than `known`, its own newest),
 * shared by the start and `npm run restore`: how many, and the times to the minute, since several
 * changes are often made on one day and days alone would read as if the two were the same.
 */
export function newerSchemaChanges(sqlite: Database.Database, known: number): string {
  const newer = sqlite
    .prepare('SELECT count(*) AS count, max(created_at) AS newest FROM __drizzle_migrations WHERE created_at > ?')
    .get(known) as { count: number; newest: number };
  const minute = (when: number): string => `${new Date(when).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const changes = newer.count === 1 ? '1 schema change' : `${newer.count} schema changes`;
  return `it has ${changes} this version lacks, the newest made ${minute(Number(newer.newest))}; this version's newest was made ${minute(known)}`;
}

/** The migrations this version knows, in order: when each was made and its file's tag (`0003_gateway`). */
export function migrationJournal(
  migrationsDir: string,
): ReadonlyArray<{ readonly when: number; readonly tag: string }> {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number; tag: string }>;
  };
  return journal.entries;
}

/** When the newest migration the database has applied was made; undefined for a database without any. */
export function newestAppliedMigration(sqlite: Database.Database): number | undefined {
  const table = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (table === undefined) return undefined;
  const newest = sqlite.prepare('SELECT max(created_at) AS at FROM __drizzle_migrations').get() as {
    at: number | null;
  };
  return newest.at === null ? undefined : Number(newest.at);
}

/**
 * The tags of the migrations an existing database is about to be upgraded with: those newer than its
 * newest, as Drizzle's migrator picks them. None for a new database, whose creation is no upgrade.
 */
function pendingMigrations(sqlite: Database.Database, migrationsDir: string): string[] {
  const newest = newestAppliedMigration(sqlite);
  if (newest === undefined) return [];
  return migrationJournal(migrationsDir)
    .filter((entry) => entry.when > newest)
    .map((entry) => entry.tag);
}

/**
 * One line when a start upgraded the database's schema, which cannot be undone by starting the older
 * version again: what was applied, at the level the server logs at, before the services have loggers.
 */
function logAppliedMigrations(file: string, tags: readonly string[]): void {
  serverLogger(process.env.GATEHOUSE_LOG_LEVEL || 'info', 'gatehouse')?.info(
    { database: file, migrations: tags },
    `applied ${tags.length} migration(s) to the database ${file}: ${tags.join(', ')}`,
  );
}

/**
 * Readiness: the database reads its schema and, after a failure that said it cannot be written or
 * read, takes a probe write (after damage, once `PRAGMA quick_check` passes: see damage-check.ts). The schema read touches the schema's pages (`SELECT 1` reads none), so a
 * file that is no longer a database fails it; it is all a poll costs while nothing failed.
 */
export function databaseReady(handle: DatabaseHandle): boolean {
  const { sqlite } = handle;
  if (!sqlite.open) return false;
  // After a failure, the file as it is now: a page read while it was damaged stays cached, as valid,
  // until another connection writes.
  if (handle.failure !== undefined) sqlite.pragma('shrink_memory');
  try {
    sqlite.prepare('SELECT count(*) AS entries FROM sqlite_schema').get();
  } catch (error) {
    handle.noteFailure((error as { code?: string }).code ?? 'SQLITE_ERROR');
    return false;
  }
  if (handle.failure === undefined) return true;
  // A damaged file takes writes to its undamaged pages: only a check that reads them all clears it.
  if (isDamageCode(handle.failure) && !damageGone(sqlite)) return false;
  // Each poll tries again, so the database is ready once there is room, whether or not any request
  // writes meanwhile (a load balancer sends none to a service that is not ready).
  if (!probeWriteSucceeds(handle)) return false;
  handle.forgetFailure();
  return true;
}

/**
 * A write that needs a page of its own (a table's root), committed and undone in one transaction: it
 * fails as long as the file cannot grow (a full disk, SQLITE_FULL), cannot be written (SQLITE_IOERR,
 * SQLITE_READONLY) or its first pages are damaged, and leaves at most one free page behind. It does
 * not wait for a lock another process holds: a poll must not stall the services for the busy timeout.
 */
function probeWriteSucceeds(handle: DatabaseHandle): boolean {
  const { sqlite } = handle;
  if (handle.lock.held || sqlite.inTransaction) return false;
  const busyTimeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.exec(
      'BEGIN IMMEDIATE; CREATE TABLE gatehouse_readiness_probe (x); DROP TABLE gatehouse_readiness_probe; COMMIT',
    );
    return true;
  } catch {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    return false;
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
