import type { CacheStatus } from '../accounting/usage-entry.js';
import type { Usage } from '../formats/ir.js';
import type { CachedAnswer } from './response-store.js';

/** What a cache hit answered from: the kept answer's usage (what the hit did not spend again) and its age. */
export interface CacheHit {
  readonly usage: Usage;
  readonly ageMs: number;
}

/** What the cache stage decided for one request (on the request's context). */
export interface CacheState {
  /** The entry to look up and to fill; undefined when the request said `no-store`. */
  readonly key: string | undefined;
  /** How long this request's answer is kept: its settings' time to live, or a shorter one it asked for. */
  readonly ttlMs: number;
  /** The request's headers skipped the lookup (`no-cache`, `no-store`, `x-gatehouse-cache`). */
  readonly bypassed: boolean;
  /** What the cache did, as the `x-gatehouse-cache` response header and the usage row say it. */
  readonly status: CacheStatus;
  /** Set on a hit. */
  readonly hit?: CacheHit;
  /** Set when identical requests wait for this one's answer: settles them with it, or with nothing. */
  readonly lead?: (answer: CachedAnswer | undefined) => void;
}
