/**
 * A bounded map whose entries expire: sign-ins in progress and key hand-offs live here, in memory.
 * Anyone may start a sign-in, so a full store makes room by dropping its oldest entry rather than
 * refusing new ones: a flood of anonymous sign-ins can only push out others as old, never lock every
 * user out. All entries live equally long, so the oldest are first in the map, and expiry and eviction
 * cost O(1) per entry.
 */
export class PendingStore<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps `value` under `id` until it expires or is taken (or, when the store is full, until newer ones push it out). */
  put(id: string, value: T): void {
    this.sweep();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { value, expiresAt: this.now() + this.ttlMs });
  }

  /** The entry without using it up, or undefined when unknown, used or expired. */
  peek(id: string): T | undefined {
    const entry = this.entries.get(id);
    return entry !== undefined && entry.expiresAt > this.now() ? entry.value : undefined;
  }

  /** Removes and returns the entry (one use only), or undefined when unknown, used or expired. */
  take(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    return entry.expiresAt > this.now() ? entry.value : undefined;
  }

  /** Drops expired entries from the front (the oldest), stopping at the first live one. */
  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.entries.delete(id);
    }
  }
}
