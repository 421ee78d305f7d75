/** What the cache stage decided for one request (on the request's context). */
export interface CacheState {
  /** The entry to look up and to fill; undefined when the request said `no-store`. */
  readonly key: string | undefined;
  readonly ttlMs: number;
  /** The request's Cache-Control skipped the lookup (`no-cache`, `no-store`). */
  readonly bypassed: boolean;
}
