const MINUTE_MS = 60_000;

/**
 * A token bucket holding up to `capacity` units, refilled continuously at `capacity` per minute. A
 * request takes its cost at once or not at all; settling may push the level below zero (a stream that
 * used more than it reserved), which later requests then wait out, but never below one minute's
 * worth: a limit per minute holds back no longer than a minute window would, however much was used
 * (before a limit was set or lowered, or by one long stream).
 */
export class TokenBucket {
  private level: number;
  private at: number;
  /**
   * What requests admitted and not yet settled took from it: a bucket rebuilt for a changed limit from
   * the usage table (which has only finished requests) takes it over.
   */
  pending = 0;
  /**
   * Until when the refill is spoken for by refused requests told to come back (their Retry-After):
   * the next one refused is told to come back after them, so a herd refused together is let back in
   * one by one rather than all at the moment only the first of them fits.
   */
  private promisedUntil = 0;

  constructor(
    private readonly capacity: number,
    now: number,
  ) {
    this.level = capacity;
    this.at = now;
  }

  /** Milliseconds until `cost` fits (0: it fits now; Infinity: it never will, being larger than the bucket). */
  waitFor(cost: number, now: number): number {
    if (cost > this.capacity) return Infinity;
    this.refill(now);
    if (this.level >= cost) return 0;
    return ((cost - this.level) * MINUTE_MS) / this.capacity;
  }

  /**
   * When a request refused now should come back (milliseconds from now): once the refill promised to
   * those refused before it and its own `cost` have come in. Promises reach at most a minute (a full
   * refill) beyond its own wait, so a client that ignores Retry-After and keeps asking cannot push
   * the others' retries out further than a limit per minute would.
   */
  retryAfter(cost: number, now: number): number {
    const own = this.waitFor(cost, now);
    if (!Number.isFinite(own)) return own;
    // Refill until `promisedUntil` goes to those before it; its own cost comes in after that.
    const queued = this.promisedUntil > now ? this.promisedUntil + (cost * MINUTE_MS) / this.capacity : 0;
    const due = Math.min(Math.max(now + own, queued), now + own + MINUTE_MS);
    this.promisedUntil = due;
    return due - now;
  }

  /** Takes `cost` (the caller checked `waitFor` first; replayed history may take more than there is). */
  take(cost: number, now: number): void {
    this.refill(now);
    this.level = Math.max(-this.capacity, this.level - cost);
  }

  /** Gives back what a reservation did not use (or takes more, for a negative amount). */
  give(amount: number, now: number): void {
    this.refill(now);
    this.level = Math.max(-this.capacity, Math.min(this.capacity, this.level + amount));
  }

  /** What is left now, never below zero (for headers and views). */
  remaining(now: number): number {
    this.refill(now);
    return Math.max(0, Math.floor(this.level));
  }

  /** Milliseconds until the bucket is full again. */
  untilFull(now: number): number {
    this.refill(now);
    return Math.ceil(((this.capacity - this.level) * MINUTE_MS) / this.capacity);
  }

  /** Whether the bucket is full (it can be forgotten: a new one starts full). */
  isFull(now: number): boolean {
    this.refill(now);
    return this.level >= this.capacity;
  }

  get limit(): number {
    return this.capacity;
  }

  private refill(now: number): void {
    if (now <= this.at) return;
    this.level = Math.min(this.capacity, this.level + ((now - this.at) * this.capacity) / MINUTE_MS);
    this.at = now;
  }
}
