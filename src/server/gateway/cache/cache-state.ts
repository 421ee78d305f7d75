import type { CachedAnswer } from './response-store.js';

/** What the cache stage decided for one request (on the request's context). */
export interface CacheState {
  /** The entry to look up and to fill; undefined when the request said `no-store`. */
  readonly key: string | undefined;
  /** How long this request's answer is kept: its settings' time to live, or a shorter one it asked for. */
  readonly ttlMs: number;
  /** The request's headers skipped the lookup (`no-cache`, `no-store`, `x-gatehouse-cache`). */
  readonly bypassed: boolean;
  /** Set when identical requests wait for this one's answer: settles them with it, or with nothing. */
  readonly lead?: (answer: CachedAnswer | undefined) => void;
}
