import Database from 'better-sqlite3';
import type { DatabaseHandle } from '../../db/connection.js';

/** A connection for batched bookkeeping writes, and how to close it. */
export interface BatchConnection {
  readonly sqlite: Database.Database;
  close(): void;
}

/**
 * A second connection to the same database for group-committed writes (usage batches, key last-use
 * times), with `synchronous = NORMAL`: in WAL mode a commit then needs no fsync, so a batch never
 * stalls the event loop on the disk. A crash can lose the last batch — these rows already wait in
 * memory for up to one batch interval, so nothing weaker is promised. Everything that must be durable
 * before an answer (embeddings usage and audit, admin changes) stays on the main, FULL connection.
 */
export function openBatchConnection(handle: DatabaseHandle): BatchConnection {
  if (handle.file === ':memory:') return { sqlite: handle.sqlite, close: () => undefined };
  const nativeBinding = process.env.GATEHOUSE_SQLITE_BINDING || undefined;
  const sqlite = new Database(handle.file, nativeBinding ? { nativeBinding } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  handle.lock.add(sqlite);
  return {
    sqlite,
    close: () => {
      handle.lock.remove(sqlite);
      if (sqlite.open) sqlite.close();
    },
  };
}
