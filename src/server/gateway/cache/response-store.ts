import { LRUCache } from 'lru-cache';
import type { CachePurge, CacheStats } from '../../../shared/cache-api.js';

/** A kept answer: the provider's JSON text, or a stream's frames as the provider layer produced them. */
export type CachedBody =
  { readonly kind: 'json'; readonly text: string } | { readonly kind: 'stream'; readonly frames: readonly string[] };

/** One entry, with who stored it (for purges) and which deployment answered. */
export interface CachedAnswer {
  readonly body: CachedBody;
  readonly team: string | null;
  readonly keyId: string;
  readonly model: string;
  readonly deploymentId: string | undefined;
}

/** Characters an entry holds, its weight against `max_bytes`. */
export function bodySize(body: CachedBody): number {
  if (body.kind === 'json') return body.text.length;
  let size = 0;
  for (const frame of body.frames) size += frame.length;
  return size;
}

/** The memory bounds of the store. */
export interface StoreBounds {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
}

function lruFor(bounds: StoreBounds): LRUCache<string, CachedAnswer> {
  return new LRUCache<string, CachedAnswer>({
    max: bounds.maxEntries,
    maxSize: bounds.maxBytes,
    maxEntrySize: Math.min(bounds.maxEntryBytes, bounds.maxBytes),
    sizeCalculation: (entry) => Math.max(1, bodySize(entry.body)),
  });
}

/**
 * The answers in memory: least recently used first out, bounded by entry count and by total size,
 * each entry with its own time to live (expired ones are never answered, and go when touched or
 * when space is needed).
 */
export class ResponseStore {
  #entries: LRUCache<string, CachedAnswer>;
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

  /** The live entry for `key`, counting the hit or miss. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) this.#misses += 1;
    else this.#hits += 1;
    return entry;
  }

  /** Keeps an answer for `ttlMs` (one larger than max_entry_bytes is not kept). */
  set(key: string, entry: CachedAnswer, ttlMs: number): void {
    this.#entries.set(key, entry, { ttl: ttlMs });
    this.#stores += 1;
  }

  /** Forgets the entries matching every given field (all of them when none is given); returns how many. */
  purge(filter: CachePurge): number {
    const all = filter.team === undefined && filter.key_id === undefined && filter.model === undefined;
    if (all) {
      const count = this.#entries.size;
      this.#entries.clear();
      return count;
    }
    // Keys are collected first: lru-cache does not promise that deleting during its own walk is safe.
    const doomed: string[] = [];
    for (const [key, entry] of this.#entries.entries()) if (matches(entry, filter)) doomed.push(key);
    for (const key of doomed) this.#entries.delete(key);
    return doomed.length;
  }

  /** True when some entry matches every given field: a name that is gone elsewhere may still be held here. */
  holds(filter: CachePurge): boolean {
    for (const entry of this.#entries.values()) if (matches(entry, filter)) return true;
    return false;
  }

  /** Counters since start, and what is held now. */
  stats(): CacheStats {
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
