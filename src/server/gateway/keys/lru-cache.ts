/** A bounded map that forgets the least recently used entry first (Map keeps insertion order). */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** The value for `key`, marking it as most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Stores `value`, evicting the oldest entry when full. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.map.delete(key);
  }

  /** Forgets every entry whose value matches. */
  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, value] of this.map) if (predicate(value)) this.map.delete(key);
  }

  /** Number of entries. */
  get size(): number {
    return this.map.size;
  }
}
