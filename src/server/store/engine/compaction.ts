import type Database from 'better-sqlite3';

// Giving the database's free pages back to the disk. Deleting rows (gc, a branch deletion) leaves their
// pages free inside the file for later writes, as SQLite does without auto_vacuum: the file never shrinks.

/** Bytes of the database file's free pages: what {@link compactDatabase} would give back. */
export function freeBytes(sqlite: Database.Database): number {
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
  return pageSize * (sqlite.pragma('freelist_count', { simple: true }) as number);
}

/**
 * Rewrites the database without its free pages (`VACUUM`), then moves the result into the main file and
 * empties the WAL, where a WAL-mode VACUUM first writes the whole database. Blocks the process for its
 * duration and needs free disk of about twice the database's size meanwhile. Returns how many bytes
 * smaller the database became.
 */
export function compactDatabase(sqlite: Database.Database): number {
  const before = databaseBytes(sqlite);
  sqlite.exec('VACUUM');
  // A reader in another process (a backup) can hold the checkpoint back: the WAL is then cut to
  // journal_size_limit by a later checkpoint, and the main file has shrunk all the same once it runs.
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return before - databaseBytes(sqlite);
}

function databaseBytes(sqlite: Database.Database): number {
  return (
    (sqlite.pragma('page_size', { simple: true }) as number) * (sqlite.pragma('page_count', { simple: true }) as number)
  );
}
