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
