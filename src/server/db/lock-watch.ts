import type Database from 'better-sqlite3';

/** How long a write waits for a lock another process holds, normally and once it is known to be held. */
export interface LockWaits {
  /** SQLite's busy timeout while nobody else holds the lock long (the usual case). */
  readonly waitMs: number;
  /** The busy timeout once a write waited `waitMs` in vain, until the lock is free again. */
  readonly heldWaitMs: number;
  /** How often the lock is tried while it is held. */
  readonly probeMs: number;
}

const DEFAULT_WAITS: LockWaits = { waitMs: 5000, heldWaitMs: 20, probeMs: 250 };

/**
 * Watches for another process holding the database's write lock (a sqlite3 shell or DB Browser left
 * in a transaction, a backup tool). better-sqlite3 waits synchronously, so every write waiting the
 * full busy timeout would stall both services for it, one write after another. After the first
 * write that waited in vain, writes wait only briefly (and fail with SQLITE_BUSY, a 503 at the edge)
 * until a probe takes the lock: the services stall once, not for as long as the lock is held.
 * Batched bookkeeping (usage rows, key last-use times) holds its rows meanwhile and writes them
 * when the lock is free again.
 */
export class DatabaseLockWatch {
  readonly #connections = new Set<Database.Database>();
  readonly #onRelease = new Set<() => void>();
  #waits: LockWaits;
  #probe: NodeJS.Timeout | undefined;

  constructor(waits: Partial<LockWaits> = {}) {
    this.#waits = { ...DEFAULT_WAITS, ...waits };
  }

  /** Another process holds the lock: writes now fail fast. */
  get held(): boolean {
    return this.#probe !== undefined;
  }

  /** Puts a connection under the watch (its busy timeout follows the lock's state). */
  add(connection: Database.Database): void {
    this.#connections.add(connection);
    setBusyTimeout(connection, this.held ? this.#waits.heldWaitMs : this.#waits.waitMs);
  }

  remove(connection: Database.Database): void {
    this.#connections.delete(connection);
  }

  /** Changes the waits (tests shorten them); applies at once to every connection. */
  configure(waits: Partial<LockWaits>): void {
    this.#waits = { ...this.#waits, ...waits };
    for (const connection of this.#connections) this.add(connection);
  }

  /** Calls `listener` each time a held lock is found free again; returns the unsubscribe. */
  onRelease(listener: () => void): () => void {
    this.#onRelease.add(listener);
    return () => this.#onRelease.delete(listener);
  }

  /** A write failed with SQLITE_BUSY after waiting: from now on writes wait briefly, until the lock is free. */
  noteBusy(): void {
    if (this.held) return;
    for (const connection of this.#connections) setBusyTimeout(connection, this.#waits.heldWaitMs);
    this.#probe = setInterval(() => this.#tryLock(), this.#waits.probeMs);
    // A held lock must not keep a stopping process alive.
    this.#probe.unref();
  }

  /** Stops probing (the database is closing). */
  close(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
    this.#connections.clear();
    this.#onRelease.clear();
  }

  #tryLock(): void {
    const connection = [...this.#connections].find((candidate) => candidate.open && !candidate.inTransaction);
    if (connection === undefined) return;
    try {
      // Takes the write lock (RESERVED in WAL mode) and gives it back at once; SQLITE_BUSY while held.
      connection.exec('BEGIN IMMEDIATE');
      connection.exec('ROLLBACK');
    } catch {
      return;
    }
    this.#release();
  }

  #release(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
    for (const connection of this.#connections) setBusyTimeout(connection, this.#waits.waitMs);
    for (const listener of this.#onRelease) listener();
  }
}

function setBusyTimeout(connection: Database.Database, ms: number): void {
  if (connection.open) connection.pragma(`busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
}
