import { AppError } from './errors.js';

/**
 * A SQLite error saying another connection holds the lock this one needed (`SQLITE_BUSY`,
 * `SQLITE_LOCKED` and their extended codes) as a 503 with Retry-After. Each service serialises its
 * own writes, so this means another process (a sqlite3 shell left in a transaction, a backup tool)
 * held the database past the busy timeout: a state that passes, which the client may retry, not a bug.
 */
export function databaseBusyError(error: unknown): AppError | undefined {
  if (!isDatabaseBusy(error)) return undefined;
  return new AppError(
    'service_unavailable',
    `the database is locked by another connection (${(error as { code: string }).code}), such as a sqlite3 shell or a backup; retry shortly`,
    { headers: { 'retry-after': '1' } },
  );
}

/** Whether `error` is SQLite saying another connection holds the lock (`SQLITE_BUSY`, `SQLITE_LOCKED`, extended codes). */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return false;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}
