import { LRUCache } from 'lru-cache';
import type { CachePurge, CacheStats } from '../../../shared/cache-api.js';
import type { Usage } from '../formats/ir.js';
import type { CachedBody } from './kept-body.js';

/** One entry, with who stored it (for purges), which deployment answered and the usage it cost. */
export interface CachedAnswer {
  readonly body: CachedBody;
  /** The provider's usage of the answer: what each hit on it saves. */
  readonly usage: Usage;
  readonly team: string | null;
  readonly keyId: string;
  readonly model: string;
  readonly deploymentId: string | undefined;
}

/** An entry as the store holds it: with when it was stored (`performance.now()`), its age for a reader. */
export interface StoredAnswer extends CachedAnswer {
  readonly storedAt: number;
}

/** The memory bounds of the store. */
export interface StoreBounds {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
}

function lruFor(bounds: StoreBounds): LRUCache<string, StoredAnswer> {
  return new LRUCache<string, StoredAnswer>({
    max: bounds.maxEntries,
    maxSize: bounds.maxBytes,
    maxEntrySize: Math.min(bounds.maxEntryBytes, bounds.maxBytes),
    sizeCalculation: (entry) => Math.max(1, entry.body.size),
  });
}

/**
 * The answers in memory: least recently used first out, bounded by entry count and by total size,
 * each entry with the time to live it was stored with (expired ones are never answered, and go when
 * touched or when space is needed), and read only by a reader whose own time to live it is within.
 */
export class ResponseStore {
  #entries: LRUCache<string, StoredAnswer>;
  #hits = 0;
  #misses = 0;
  #stores = 0;

  constructor(bounds: StoreBounds) {
    this.#entries = lruFor(bounds);
  }

  /** New bounds: the entries that fit are kept (most recently used first), with their remaining time to live. */
  resize(bounds: StoreBounds): void {
    const entries = lruFor(bounds);
    entries.load(this.#entries.dump());
    this.#entries = entries;
  }

  /**
   * The live entry for `key` stored at most `maxAgeMs` ago, counting the hit or miss. The reader's own
   * time to live bounds the age: an entry another key of the team stored with a longer one, or one
   * stored before the time to live was lowered, is older than this reader accepts.
   */
  get(key: string, maxAgeMs: number): StoredAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || performance.now() - entry.storedAt > maxAgeMs) {
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    return entry;
  }

  /** Counts a lookup that missed as a hit after all: it was answered with an identical request's answer. */
  missAnswered(): void {
    this.#misses -= 1;
    this.#hits += 1;
  }

  /** Keeps an answer for `ttlMs` (one larger than max_entry_bytes is not kept). */
  set(key: string, entry: CachedAnswer, ttlMs: number): void {
    this.#entries.set(key, { ...entry, storedAt: performance.now() }, { ttl: ttlMs });
    this.#stores += 1;
  }

  /** Forgets the entries stored more than `maxAgeMs` ago, which no reader accepts any more; returns how many. */
  prune(maxAgeMs: number): number {
    const oldest = performance.now() - maxAgeMs;
    return this.#forget((entry) => entry.storedAt < oldest);
  }

  /** Forgets the entries matching every given field (all of them when none is given); returns how many. */
  purge(filter: CachePurge): number {
    const all = filter.team === undefined && filter.key_id === undefined && filter.model === undefined;
    if (all) {
      const count = this.#entries.size;
      this.#entries.clear();
      return count;
    }
    return this.#forget((entry) => matches(entry, filter));
  }

  #forget(doomed: (entry: StoredAnswer) => boolean): number {
    // Keys are collected first: lru-cache does not promise that deleting during its own walk is safe.
    const keys: string[] = [];
    for (const [key, entry] of this.#entries.entries()) if (doomed(entry)) keys.push(key);
    for (const key of keys) this.#entries.delete(key);
    return keys.length;
  }

  /** True when some entry matches every given field: a name that is gone elsewhere may still be held here. */
  holds(filter: CachePurge): boolean {
    for (const entry of this.#entries.values()) if (matches(entry, filter)) return true;
    return false;
  }

  /** Counters since start, and what is held now (the cache adds what the request headers asked). */
  stats(): Omit<CacheStats, 'bypasses' | 'refreshes' | 'collapsed' | 'not_kept'> {
    return {
      entries: this.#entries.size,
      bytes: this.#entries.calculatedSize,
      hits: this.#hits,
      misses: this.#misses,
      stores: this.#stores,
    };
  }
}

function matches(entry: CachedAnswer, filter: CachePurge): boolean {
  return (
    (filter.team === undefined || entry.team === filter.team) &&
    (filter.key_id === undefined || entry.keyId === filter.key_id) &&
    (filter.model === undefined || entry.model === filter.model)
  );
}
