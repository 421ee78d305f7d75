import { AppError } from './errors.js';

/**
 * A SQLite error saying another connection holds the lock this one needed (`SQLITE_BUSY`,
 * `SQLITE_LOCKED` and their extended codes) as a 503 with Retry-After. Each service serialises its
 * own writes, so this means another process (a sqlite3 shell left in a transaction, a backup tool)
 * held the database past the busy timeout: a state that passes, which the client may retry, not a bug.
 */
export function databaseBusyError(error: unknown): AppError | undefined {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return undefined;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code !== 'string' || !/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return undefined;
  return new AppError(
    'service_unavailable',
    `the database is locked by another connection (${code}), such as a sqlite3 shell or a backup; retry shortly`,
    { headers: { 'retry-after': '1' } },
  );
}
