import type { StoreRepository } from './store-repository.js';

/**
 * Contents deleted per statement; a slice runs statements until its time is up. Small, since deleting a
 * content reads its whole chain of pages and a document may be 1 MiB.
 */
export const SWEEP_BATCH = 16;

/** Options of {@link ContentSweeper}. */
export interface ContentSweeperOptions {
  /** Runs the next slice later (default `setImmediate`, so requests that arrived meanwhile go first). */
  readonly schedule?: (slice: () => void) => void;
  /** Longest a slice holds the write lock, in milliseconds (default 5). */
  readonly sliceMs?: number;
  /** Told when a slice fails; the contents stay listed and the next gc or branch deletion sweeps them. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Deletes the contents that gc and branch deletion listed as unreferenced, a few milliseconds per write
 * transaction with the event loop free in between, so that writers wait for one slice instead of the
 * whole sweep. Listing happens inside the deleting transaction; a write that reuses a listed content
 * takes it off the list in its own transaction (see `StoreRepository.ensureBlob`), so no slice ever
 * deletes a content something references.
 */
export class ContentSweeper {
  private readonly schedule: (slice: () => void) => void;
  private readonly sliceMs: number;
  private readonly onError: (error: unknown) => void;
  private running = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly repo: StoreRepository,
    options: ContentSweeperOptions = {},
  ) {
    this.schedule = options.schedule ?? ((slice) => void setImmediate(slice));
    this.sliceMs = options.sliceMs ?? 5;
    this.onError = options.onError ?? (() => {});
  }

  /** Starts sweeping what is listed, unless a sweep is already running (it takes new listings too). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(this.slice);
  }

  /** Resolves once no sweep is running. */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private readonly slice = (): void => {
    // The database may have been closed meanwhile (shutdown): what is left stays listed for next time.
    if (!this.repo.sqlite.open) return this.stop();
    let more: boolean;
    try {
      more = this.repo.write(() => {
        const until = performance.now() + this.sliceMs;
        let deleted: number;
        do deleted = this.repo.sweepUnreferenced(SWEEP_BATCH);
        while (deleted === SWEEP_BATCH && performance.now() < until);
        return deleted === SWEEP_BATCH;
      });
    } catch (error) {
      this.onError(error);
      return this.stop();
    }
    if (more) this.schedule(this.slice);
    else this.stop();
  };

  private stop(): void {
    this.running = false;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
