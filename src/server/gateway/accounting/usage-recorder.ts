import type Database from 'better-sqlite3';
import type { AuditRepository } from './audit.repository.js';
import type { AuditEntry, UsageEntry } from './usage-entry.js';
import type { UsageRepository } from './usage.repository.js';
import type { DatabaseLockWatch } from '../../db/lock-watch.js';
import { isDatabaseBusy, isDatabaseUnwritable } from '../../http/database-errors.js';

/** Rows kept in memory at most while the database cannot take them (some 30 MB). */
const MAX_HELD_ROWS = 100_000;
/** How often rows a full disk or a read-only file refused are tried again. */
const UNWRITABLE_RETRY_MS = 2_000;
/** How often a closing recorder looks whether the rows it holds were written (or can be now). */
const CLOSE_RETRY_MS = 100;

/** Options of the recorder. */
export interface UsageRecorderOptions {
  /** Longest a row waits in memory before its batch is written. */
  readonly flushIntervalMs?: number;
  /** Rows that trigger an immediate write. */
  readonly maxBatch?: number;
  /** Called with a batch that could not be written (the rows are dropped, never retried forever). */
  readonly onError?: (error: unknown, rows: number) => void;
  /**
   * The database's lock watch: while another process holds the write lock, rows wait in memory (up to
   * `maxHeldRows`, the oldest dropped beyond) and are written once it is free, instead of being dropped.
   */
  readonly lock?: DatabaseLockWatch;
  readonly maxHeldRows?: number;
  /** How often rows the database refused as unwritable (a full disk, a read-only file) are tried again. */
  readonly unwritableRetryMs?: number;
  /**
   * Called at close with the rows the database still had not taken by the close's deadline (a lock
   * another process kept, a full disk, a read-only file), to be kept elsewhere; without it they are
   * dropped, and only their count goes to `onError`.
   */
  readonly onUnwritten?: (rows: readonly UsageEntry[]) => void;
  /** Called after rows were written (a batch, or one durable row), for the views that show them: keep it cheap. */
  readonly onWritten?: () => void;
  /**
   * Called once when rows start waiting for a lock another process holds (`locked`), or for a full disk
   * or read-only file to take them (`unwritable`), and once with how many waited when they are written:
   * only memory holds them meanwhile, and a crash would lose them.
   */
  readonly onHeld?: (event: HeldEvent) => void;
}

/** Rows began waiting, or were written after waiting. */
export interface HeldEvent {
  readonly state: 'waiting' | 'written';
  readonly rows: number;
  readonly cause: 'locked' | 'unwritable';
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
  /** Longest a row waits in memory: what a crash can lose of the requests answered before it. */
  readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly commitPair: (usage: UsageEntry, audit: AuditEntry) => void;
  private closed = false;
  private releaseWatch: (() => void) | undefined;
  /** Set while the database refuses rows until someone acts (a full disk, a read-only file). */
  private unwritable = false;
  /** Rows written since they began waiting for the disk, and rows dropped past the bound not yet said. */
  private writtenSinceHeld = 0;
  private droppedUnsaid = 0;

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
    // Waiting for space: the retry timer writes them, rather than a failing write per batch.
    if (this.unwritable) this.dropBeyondBound('the database could not be written for too long', true);
    else if (this.queue.length >= this.maxBatch) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes a usage row and its audit event in one durable transaction, now. */
  commitNow(entry: UsageEntry, audit: AuditEntry): void {
    this.commitPair(entry, audit);
    this.options.onWritten?.();
  }

  /** Writes whatever is queued. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.length === 0) return;
    const lock = this.options.lock;
    if (lock?.held) return this.holdUntilFree(lock);
    if (this.unwritable) return this.retryUnwritable();
    const batch = this.queue;
    this.queue = [];
    try {
      this.batches.insertBatch(batch);
      this.options.onWritten?.();
    } catch (error) {
      if (lock !== undefined && isDatabaseBusy(error)) {
        this.queue = batch.concat(this.queue);
        lock.noteBusy();
        return this.holdUntilFree(lock);
      }
      // A full disk or a read-only file passes once someone acts: the rows (tokens and cost, which
      // budgets and bills are made of) wait for it rather than being lost.
      if (isDatabaseUnwritable(error)) {
        this.queue = batch.concat(this.queue);
        return this.holdUntilWritable();
      }
      this.options.onError?.(error, batch.length);
    }
  }

  /** Whether rows are being written: false while a full disk or a read-only file refuses them. */
  get writable(): boolean {
    return !this.unwritable;
  }

  /**
   * Drops the oldest rows beyond the bound of rows held in memory, saying how many, or (`quietly`)
   * counting them for the next retry to say: a row recorded while the disk is full is no log line each.
   */
  private dropBeyondBound(why: string, quietly = false): void {
    const excess = this.queue.length - (this.options.maxHeldRows ?? MAX_HELD_ROWS);
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    if (quietly) this.droppedUnsaid += excess;
    else this.options.onError?.(new Error(why), excess);
  }

  /**
   * Writes what waited for a full disk or a read-only file, a batch at a time: a little room takes the
   * first batches (one transaction of the whole backlog needs room for all of it at once, and holds
   * the event loop as long), and the first batch refused waits for the next try with the rest.
   */
  private retryUnwritable(): void {
    let written = 0;
    try {
      while (written < this.queue.length) {
        const batch = this.queue.slice(written, written + this.maxBatch);
        this.batches.insertBatch(batch);
        written += batch.length;
      }
    } catch (error) {
      if (!isDatabaseUnwritable(error)) {
        // Not the disk: these rows cannot be written at all; the others wait their turn.
        const refused = Math.min(this.maxBatch, this.queue.length - written);
        this.options.onError?.(error, refused);
        written += refused;
      }
    }
    if (written > 0) this.options.onWritten?.();
    this.queue = this.queue.slice(written);
    this.writtenSinceHeld += written;
    if (this.queue.length > 0) return this.holdUntilWritable();
    this.unwritable = false;
    this.options.onHeld?.({ state: 'written', rows: this.writtenSinceHeld, cause: 'unwritable' });
    this.writtenSinceHeld = 0;
  }

  /** Keeps the queue (bounded) until the lock is free, then writes it. */
  private holdUntilFree(lock: DatabaseLockWatch): void {
    this.dropBeyondBound('the database stayed locked by another process');
    if (this.releaseWatch !== undefined) return;
    this.options.onHeld?.({ state: 'waiting', rows: this.queue.length, cause: 'locked' });
    this.releaseWatch = lock.onRelease(() => {
      this.releaseWatch?.();
      this.releaseWatch = undefined;
      const rows = this.queue.length;
      this.flush();
      if (this.releaseWatch === undefined) this.options.onHeld?.({ state: 'written', rows, cause: 'locked' });
    });
  }

  /** Keeps the queue (bounded) and tries it again every so often, until the database takes it. */
  private holdUntilWritable(): void {
    this.dropBeyondBound('the database could not be written for too long');
    if (this.droppedUnsaid > 0) {
      this.options.onError?.(new Error('the database could not be written for too long'), this.droppedUnsaid);
      this.droppedUnsaid = 0;
    }
    if (!this.unwritable) {
      this.unwritable = true;
      this.options.onHeld?.({ state: 'waiting', rows: this.queue.length, cause: 'unwritable' });
    }
    this.timer = setTimeout(() => this.flush(), this.options.unwritableRetryMs ?? UNWRITABLE_RETRY_MS);
    this.timer.unref();
  }

  /** Rows waiting for their batch. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Why queued rows could not be written just now: another process holds the write lock (`locked`), or
   * a full disk or read-only file refuses them (`unwritable`); undefined when nothing waits for either.
   */
  get heldBy(): HeldEvent['cause'] | undefined {
    if (this.queue.length === 0) return undefined;
    if (this.releaseWatch !== undefined || this.options.lock?.held) return 'locked';
    return this.unwritable ? 'unwritable' : undefined;
  }

  /**
   * Writes what is queued and refuses further rows (the database closes next). Rows waiting for a lock
   * another process holds, or for a full disk or a read-only file, are tried again until `deadline`
   * (a time in ms, by default now: one try): those still held then go to `onUnwritten`. Without a wait
   * it finishes before it returns.
   */
  async close(deadline: number = Date.now()): Promise<void> {
    this.flush();
    while (this.queue.length > 0 && Date.now() < deadline) {
      // Not unref'd: this wait is what the stopping process is doing.
      await new Promise((resolve) => setTimeout(resolve, Math.min(CLOSE_RETRY_MS, deadline - Date.now())));
      // While the lock is held this waits for the watch's release (which writes them); otherwise it tries.
      this.flush();
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.releaseWatch?.();
    this.releaseWatch = undefined;
    const unwritten = this.queue;
    this.queue = [];
    this.closed = true;
    if (unwritten.length === 0) return;
    if (this.options.onUnwritten !== undefined) this.options.onUnwritten(unwritten);
    else this.options.onError?.(new Error('the database could not be written at close'), unwritten.length);
  }
}
