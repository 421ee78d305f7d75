import type Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { serverLogger } from '../http/logger.js';

/** Key files only an earlier start writes: one older than this process means the folder was in use before. */
const EARLIER_INSTALL_KEYS = ['secrets.key', 'master.key'] as const;

/**
 * Why a database with no tables beside key files of an earlier install is worth a word: the usual
 * cause is `cp gatehouse.db` of a running server, whose writes were still in its -wal file, and the
 * copy then starts as an empty install. Undefined when the database has tables, or the folder is new.
 */
export function newDatabaseAmongOldKeys(sqlite: Database.Database, file: string): string | undefined {
  const tables = sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  if (tables.n > 0) return undefined;
  // This start generates master.key just before it opens the database: only one from before counts.
  const processStartedMs = Date.now() - process.uptime() * 1000;
  const keys = EARLIER_INSTALL_KEYS.map((name) => join(dirname(file), name)).filter(
    (path) => existsSync(path) && statSync(path).mtimeMs < processStartedMs,
  );
  if (keys.length === 0) return undefined;
  return (
    `the database ${file} is new (it holds no tables) while the data folder's ${keys.map((key) => basename(key)).join(' and ')} ` +
    `${keys.length === 1 ? 'is' : 'are'} from an earlier install: starting as an empty install. If this database was copied from a running server ` +
    `without its -wal file, the copy missed what was written since the server started; stop this server and restore ` +
    `a copy made with npm run backup (docs/configuration.md#backups)`
  );
}

/** Logs {@link newDatabaseAmongOldKeys} as a warning, at the level the server logs at, before the services have loggers. */
export function warnOfNewDatabaseAmongOldKeys(sqlite: Database.Database, file: string): void {
  const warning = newDatabaseAmongOldKeys(sqlite, file);
  if (warning === undefined) return;
  serverLogger(process.env.GATEHOUSE_LOG_LEVEL || 'info', 'gatehouse')?.warn({ database: file }, warning);
}
