import type { ResponsesRepository } from './responses.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often expired responses are looked for after the purge at start. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Rows deleted per statement: each is a short write, and the event loop runs between them. */
export const PURGE_BATCH_ROWS = 500;

/** What the purge needs besides the rows. */
export interface ResponsesRetentionOptions {
  /** Days a kept response is kept; 0 keeps them forever. */
  readonly retentionDays: number;
  /** Told how many were deleted, only when some were. */
  readonly onPurged: (count: number) => void;
  /** A purge that failed (the database busy or unwritable); the next one tries again. */
  readonly onError: (error: unknown) => void;
  readonly now?: () => number;
  readonly intervalMs?: number;
  readonly batchRows?: number;
}

/**
 * Deletes kept responses older than `responses.retention_days`, at start and then every hour, in
 * short batches. Each response expires on its own, as at OpenAI: a newer one that continued an
 * expired one stays, and a conversation continued from it goes back only as far as its turns still
 * kept.
 */
export class ResponsesRetention {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #closed = false;

  constructor(
    private readonly repository: ResponsesRepository,
    private readonly options: ResponsesRetentionOptions,
  ) {}

  /** Purges now, then every interval; nothing when responses are kept forever. */
  start(): void {
    if (this.options.retentionDays === 0 || this.#closed || this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.purgeExpired(), this.options.intervalMs ?? PURGE_INTERVAL_MS);
    this.#timer.unref();
    void this.purgeExpired();
  }

  /**
   * Deletes every kept response older than the retention, a batch at a time; how many. A purge
   * asked for while one runs is that one.
   */
  purgeExpired(): Promise<number> {
    if (this.options.retentionDays === 0 || this.#closed) return Promise.resolve(0);
    this.#running ??= this.#purge().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** Stops the timer; a purge under way stops after its current batch (the database is closing). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  async #purge(): Promise<number> {
    const { now = Date.now, batchRows = PURGE_BATCH_ROWS } = this.options;
    // One cutoff for the whole purge: the responses made while it runs are not its concern.
    const cutoff = now() - this.options.retentionDays * DAY_MS;
    let purged = 0;
    try {
      for (;;) {
        const deleted = this.repository.deleteCreatedBefore(cutoff, batchRows);
        purged += deleted;
        if (deleted < batchRows) break;
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#closed) break;
      }
    } catch (error) {
      this.options.onError(error);
    }
    if (purged > 0) this.options.onPurged(purged);
    return purged;
  }
}
