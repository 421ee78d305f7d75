import { LRUCache } from 'lru-cache';

/** A bounded map that forgets the least recently used entry first, with a bulk delete by value. */
export class LruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(capacity: number) {
    super({ max: capacity });
  }

  /** Forgets every entry whose value matches. */
  deleteWhere(predicate: (value: V) => boolean): void {
    // Keys are collected first: deleting while lru-cache walks its own list is not something it promises to allow.
    const doomed: K[] = [];
    for (const [key, value] of this.entries()) if (predicate(value)) doomed.push(key);
    for (const key of doomed) this.delete(key);
  }
}
