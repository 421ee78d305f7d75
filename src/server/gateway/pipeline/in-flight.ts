/**
 * Counts requests the pipeline has begun and not yet finished. Closing waits on it: when connections
 * are cut at shutdown, a response's close (which writes the usage row) can come after the server
 * itself reports closed, and the usage recorder must still be open to take that row.
 */
export class InFlightRequests {
  #count = 0;
  #waiters: Array<() => void> = [];

  /** A request entered the pipeline. */
  begin(): void {
    this.#count += 1;
  }

  /** A request was finished (its usage row handed to the recorder). */
  end(): void {
    this.#count -= 1;
    // Only a close waits: nothing to do (and nothing to allocate) on a request's ordinary end.
    if (this.#count > 0 || this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  get count(): number {
    return this.#count;
  }

  /** Resolves once no request is in flight, or after `timeoutMs` whatever remains. */
  settled(timeoutMs: number): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
