/** A bounded map whose entries expire: sign-ins in progress and key hand-offs live here, in memory. */
export class PendingStore<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps `value` under `id` until it expires or is taken; false when the store is full. */
  put(id: string, value: T): boolean {
    this.sweep();
    if (this.entries.size >= this.maxEntries) return false;
    this.entries.set(id, { value, expiresAt: this.now() + this.ttlMs });
    return true;
  }

  /** Removes and returns the entry (one use only), or undefined when unknown, used or expired. */
  take(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    return entry.expiresAt > this.now() ? entry.value : undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
