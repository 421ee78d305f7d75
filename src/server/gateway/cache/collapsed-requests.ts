import type { ClientWatch } from '../pipeline/client-connection.js';
import type { CachedAnswer } from './response-store.js';

/** The call one request is making for a cache key, which identical requests wait for. */
interface Leader {
  readonly settled: Promise<CachedAnswer | undefined>;
  readonly settle: (answer: CachedAnswer | undefined) => void;
}

/**
 * Identical requests in flight (single-flight): the first request that misses leads and calls the
 * provider; those that miss while it runs wait for its kept answer instead of calling again. A lead
 * that fails, is not kept or outlasts its time settles with nothing, and each waiter then calls the
 * provider itself: a failure is never shared.
 */
export class CollapsedRequests {
  readonly #leaders = new Map<string, Leader>();

  /**
   * Makes the caller the leader of `key` when none is, for at most `timeoutMs`; returns the function
   * that settles the lead (once), or undefined when another request leads.
   */
  lead(key: string, timeoutMs: number): ((answer: CachedAnswer | undefined) => void) | undefined {
    if (this.#leaders.has(key)) return undefined;
    let resolve!: (answer: CachedAnswer | undefined) => void;
    const settled = new Promise<CachedAnswer | undefined>((done) => (resolve = done));
    const timer = setTimeout(() => settle(undefined), timeoutMs);
    timer.unref();
    const leader: Leader = { settled, settle: (answer) => settle(answer) };
    const settle = (answer: CachedAnswer | undefined): void => {
      if (this.#leaders.get(key) !== leader) return;
      clearTimeout(timer);
      this.#leaders.delete(key);
      resolve(answer);
    };
    this.#leaders.set(key, leader);
    return leader.settle;
  }

  /**
   * The leader's answer for `key`, once it has one (undefined when it failed, was not kept, timed out,
   * this request's client left first, or its deadline passed); undefined at once when no request leads.
   * `endsAt` (by `performance.now()`, Infinity for none) is read only when the request waits.
   */
  waitFor(key: string, signal: ClientWatch, endsAt: () => number): Promise<CachedAnswer | undefined> | undefined {
    const leader = this.#leaders.get(key);
    if (leader === undefined) return undefined;
    const until = endsAt();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const end = (answer: CachedAnswer | undefined): void => {
        clearTimeout(timer);
        signal.off('abort', left);
        resolve(answer);
      };
      const left = (): void => end(undefined);
      // Set again until the deadline has passed: Node fires a timer set late in a busy turn early, and
      // the route stage must find no time left, or it would still call the provider.
      const watch = (): void => {
        const leftMs = until - performance.now();
        if (leftMs <= 0) end(undefined);
        else timer = setTimeout(watch, Math.ceil(leftMs));
      };
      signal.once('abort', left);
      if (until !== Infinity) watch();
      void leader.settled.then(end);
    });
  }
}
