import { isDamageCode } from '../db/damage-check.js';
import { AppError } from './errors.js';
import { serverLogger } from './logger.js';

/** The SQLite result code of an error better-sqlite3 raised (`SQLITE_BUSY_SNAPSHOT`, ...), if it is one. */
function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return undefined;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is SQLite saying another connection holds the lock (`SQLITE_BUSY`, `SQLITE_LOCKED`, extended codes). */
export function isDatabaseBusy(error: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)(_|$)/.test(sqliteCode(error) ?? '');
}

/** Whether `error` is SQLite saying the database cannot be written until someone acts: a full disk, a read-only file. */
export function isDatabaseUnwritable(error: unknown): boolean {
  return /^SQLITE_(FULL|READONLY)(_|$)/.test(sqliteCode(error) ?? '');
}

/** Whether `error` is SQLite saying the database file is damaged or not a database at all. */
export function isDatabaseDamaged(error: unknown): boolean {
  return isDamageCode(sqliteCode(error));
}

/**
 * The SQLite code of `error` when it says the database cannot be written or read until something
 * changes (a full disk, a read-only or damaged file, an I/O error): what readiness reports until a
 * probe write succeeds (a damaged file: until a full check passes too). A lock is not one: it passes by itself, and the lock watch handles it.
 */
export function databaseFailureCode(error: unknown): string | undefined {
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  return isDatabaseUnwritable(error) || isDatabaseDamaged(error) || /^SQLITE_IOERR(_|$)/.test(code) ? code : undefined;
}

/** What a request on a damaged database is told; the fix is the operator's, so no retry helps. */
const DAMAGED_DATABASE =
  'the database file (gatehouse.db in the data folder) is damaged, and this request could not be served from it: ' +
  'stop the server and restore the latest backup, or recover what SQLite still reads from it (docs/configuration.md#backups)';

let damageLogged = false;

/**
 * Logs the first damaged-database error of the process at error level, with SQLite's own words: every
 * request that reaches the damage fails the same way, and one line is enough to send the operator to
 * the backups (each answer says it too). At the level the server logs at, as its start-up lines are.
 */
function logDamageOnce(error: unknown, code: string): void {
  if (damageLogged) return;
  damageLogged = true;
  serverLogger(process.env.GATEHOUSE_LOG_LEVEL || 'info', 'gatehouse')?.error(
    { code, err: error },
    `the database file is damaged (${code}: ${(error as Error).message}): stop the server and restore the latest backup, or recover the file (docs/configuration.md#backups); later requests that reach the damage are answered 503 without another line at this level`,
  );
}

/**
 * A SQLite error that says the database cannot be written right now, as a 503 naming why, rather than
 * an internal error: these are states of the machine, which the message tells the user how to end.
 * Each service serialises its own writes, so a lock means another process (a sqlite3 shell left in a
 * transaction, a backup tool): a state that passes, worth a retry. A full disk or a read-only file is
 * not retried (`x-should-retry: false`, which both official SDKs honour) until someone acts, and
 * neither is a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), which needs a backup restored.
 */
export function databaseStateError(error: unknown): AppError | undefined {
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  if (isDatabaseBusy(error))
    return new AppError(
      'service_unavailable',
      `the database is locked by another connection (${code}), such as a sqlite3 shell or a backup; retry shortly`,
      { headers: { 'retry-after': '1' } },
    );
  if (isDatabaseDamaged(error)) {
    logDamageOnce(error, code);
    return new AppError('service_unavailable', `${DAMAGED_DATABASE} (${code})`, {
      headers: { 'x-should-retry': 'false' },
    });
  }
  const problem = /^SQLITE_FULL(_|$)/.test(code)
    ? 'the disk that holds the database is full: free some space'
    : /^SQLITE_READONLY(_|$)/.test(code)
      ? 'the database file cannot be written: check that the data folder and gatehouse.db are writable by this user'
      : undefined;
  if (problem === undefined) return undefined;
  return new AppError('service_unavailable', `nothing was written (${code}): ${problem}, then send the request again`, {
    headers: { 'x-should-retry': 'false' },
  });
}
