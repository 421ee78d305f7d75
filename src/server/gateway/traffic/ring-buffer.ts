/** A fixed-capacity buffer keeping the newest items (old ones are overwritten, never shifted). */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  /** Adds an item, dropping the oldest when full. */
  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count += 1;
  }

  /** Items newest first, stopping at `limit` or when `keep` says no. */
  newest(limit: number, keep: (item: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count && out.length < limit; i += 1) {
      const item = this.items[(this.next - 1 - i + this.capacity) % this.capacity] as T;
      if (!keep(item)) break;
      out.push(item);
    }
    return out;
  }

  /** Number of items held. */
  get size(): number {
    return this.count;
  }
}
