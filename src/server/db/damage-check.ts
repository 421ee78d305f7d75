import type Database from 'better-sqlite3';

/** Whether `code` is SQLite saying the database file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB, extended codes). */
export function isDamageCode(code: string | undefined): boolean {
  return /^SQLITE_(CORRUPT|NOTADB)(_|$)/.test(code ?? '');
}

/**
 * How long readiness waits between two full checks of a database known to be damaged. A write that
 * succeeds proves nothing there (it lands on undamaged pages while reads of the damaged ones keep
 * failing), so only `PRAGMA quick_check` can say the damage is gone; but it reads every page, about a
 * second per few hundred MB, and both services wait for it (one thread). Once a minute bounds that
 * cost while a load balancer polls every few seconds; the usual fix, a restored backup, is a restart
 * anyway, which starts with no damage noted.
 */
export const DAMAGE_RECHECK_INTERVAL_MS = 60_000;

const lastCheck = new WeakMap<Database.Database, number>();

/**
 * Whether a database on which damage was seen reads whole again: `PRAGMA quick_check` passes. Between
 * two checks less than DAMAGE_RECHECK_INTERVAL_MS apart, it stays damaged without reading anything.
 */
export function damageGone(sqlite: Database.Database, now: number = Date.now()): boolean {
  const last = lastCheck.get(sqlite);
  if (last !== undefined && now - last < DAMAGE_RECHECK_INTERVAL_MS) return false;
  lastCheck.set(sqlite, now);
  try {
    return sqlite.pragma('quick_check(1)', { simple: true }) === 'ok';
  } catch {
    // SQLite may stop the check at the first damaged page with SQLITE_CORRUPT rather than list it.
    return false;
  }
}
