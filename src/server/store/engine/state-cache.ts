import { LRUCache } from 'lru-cache';

/** A state's JSON with what the size bound of an answer measures, so a cached state is checked as a fresh one. */
export interface CachedState {
  readonly json: string;
  /** UTF-8 bytes of the state's keys and contents. */
  readonly bytes: number;
  readonly documents: number;
}

/**
 * A bounded least-recently-used cache of state JSON by (namespace id, revision). The state at a revision
 * never changes once written (ids are never reused; gc only deletes), so entries cannot go stale: the
 * selection that precedes every lookup still answers 404 for a collected revision.
 */
export class StateCache {
  // lru-cache rather than a re-inserting Map: evicting from the front of a Map walks the slots V8 leaves
  // behind deleted entries, which grows slow once the cache has turned over a few times.
  // Undefined when the cache is off: lru-cache refuses a size bound of 0.
  readonly #entries: LRUCache<string, CachedState> | undefined;

  /**
   * `maxChars`: total length of the cached JSON texts, 0 (or less) for no cache; one text over a quarter
   * of it is not kept.
   */
  constructor(maxChars: number) {
    if (maxChars <= 0) return;
    this.#entries = new LRUCache<string, CachedState>({
      maxSize: maxChars,
      // A length is a whole number, so "at most a quarter" is "at most the quarter rounded down".
      maxEntrySize: Math.max(1, Math.floor(maxChars / 4)),
      // lru-cache wants a positive size; an empty text (never a state, which is at least `{}`) counts as one.
      sizeCalculation: (state) => state.json.length || 1,
    });
  }

  /** The cached state, or the result of `compute` (then cached). */
  through(namespaceId: number, revision: number, compute: () => CachedState): CachedState {
    if (!this.#entries) return compute();
    const key = `${namespaceId}:${revision}`;
    const found = this.#entries.get(key);
    if (found !== undefined) return found;
    const state = compute();
    this.#entries.set(key, state);
    return state;
  }

  /** Total length of the cached JSON texts. */
  get chars(): number {
    return this.#entries?.calculatedSize ?? 0;
  }

  /** Drops everything (after gc, so collected revisions do not hold memory). */
  clear(): void {
    this.#entries?.clear();
  }
}
