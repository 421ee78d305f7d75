import type Database from 'better-sqlite3';
import type { AuditRepository } from './audit.repository.js';
import type { AuditEntry, UsageEntry } from './usage-entry.js';
import type { UsageRepository } from './usage.repository.js';

/** Options of the recorder. */
export interface UsageRecorderOptions {
  /** Longest a row waits in memory before its batch is written. */
  readonly flushIntervalMs?: number;
  /** Rows that trigger an immediate write. */
  readonly maxBatch?: number;
  /** Called with a batch that could not be written (the rows are dropped, never retried forever). */
  readonly onError?: (error: unknown, rows: number) => void;
}

/**
 * Writes usage rows by group commit: rows wait in memory for at most `flushIntervalMs` (or until
 * `maxBatch` are queued) and are written in one transaction, so the request path never waits on a disk
 * sync. Embeddings are the exception: an embeddings answer must never exist without its audit record,
 * even after a crash, so {@link commitNow} writes the row and its audit event durably before the caller answers.
 */
export class UsageRecorder {
  private queue: UsageEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly commitPair: (usage: UsageEntry, audit: AuditEntry) => void;
  private closed = false;

  /**
   * `batches` writes the queued rows (a connection without fsync on commit, see batch-connection.ts);
   * `durable` and `audit` share the main connection, for rows that must survive before an answer.
   */
  constructor(
    private readonly batches: UsageRepository,
    durableSqlite: Database.Database,
    durable: UsageRepository,
    audit: AuditRepository,
    private readonly options: UsageRecorderOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
    this.maxBatch = options.maxBatch ?? 200;
    this.commitPair = durableSqlite.transaction((u: UsageEntry, a: AuditEntry) => {
      durable.insertOne(u);
      audit.insert(a);
    });
  }

  /** Queues a row for the next batch. */
  record(entry: UsageEntry): void {
    if (this.closed) return;
    this.queue.push(entry);
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes a usage row and its audit event in one durable transaction, now. */
  commitNow(entry: UsageEntry, audit: AuditEntry): void {
    this.commitPair(entry, audit);
  }

  /** Writes whatever is queued. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.batches.insertBatch(batch);
    } catch (error) {
      this.options.onError?.(error, batch.length);
    }
  }

  /** Rows waiting for their batch. */
  get pending(): number {
    return this.queue.length;
  }

  /** Writes what is queued and refuses further rows (the database closes next). */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
