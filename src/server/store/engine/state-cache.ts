/**
 * A bounded least-recently-used cache of state JSON by (namespace id, revision). The state at a revision
 * never changes once written (ids are never reused; gc only deletes), so entries cannot go stale: the
 * selection that precedes every lookup still answers 404 for a collected revision.
 */
export class StateCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  /** `maxChars`: total length of the cached JSON texts; one text over a quarter of it is not kept. */
  constructor(private readonly maxChars: number) {}

  /** The cached JSON, or the result of `compute` (then cached). */
  through(namespaceId: number, revision: number, compute: () => string): string {
    const key = `${namespaceId}:${revision}`;
    const found = this.entries.get(key);
    if (found !== undefined) {
      // Re-insert to mark it most recently used (a Map iterates in insertion order).
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const json = compute();
    if (json.length <= this.maxChars / 4) {
      this.entries.set(key, json);
      this.size += json.length;
      for (const [oldest, text] of this.entries) {
        if (this.size <= this.maxChars) break;
        this.entries.delete(oldest);
        this.size -= text.length;
      }
    }
    return json;
  }

  /** Drops everything (after gc, so collected revisions do not hold memory). */
  clear(): void {
    this.entries.clear();
    this.size = 0;
  }
}
