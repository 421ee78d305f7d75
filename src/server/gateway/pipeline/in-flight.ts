import type { ClientWatch } from './client-connection.js';

/**
 * The requests the pipeline has begun and not yet finished, by their client watches. Closing waits on
 * them: when connections are cut at shutdown, a response's close (which writes the usage row) can come
 * after the server itself reports closed, and the usage recorder must still be open to take that row.
 * Held as a set rather than a count so a shutdown can end each one with an answer of its own.
 */
export class InFlightRequests {
  #requests = new Set<ClientWatch>();
  #waiters: Array<() => void> = [];

  /** A request entered the pipeline. */
  begin(request: ClientWatch): void {
    this.#requests.add(request);
  }

  /** A request was finished (its usage row handed to the recorder). */
  end(request: ClientWatch): void {
    this.#requests.delete(request);
    // Only a close waits: nothing to do (and nothing to allocate) on a request's ordinary end.
    if (this.#requests.size > 0 || this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  get count(): number {
    return this.#requests.size;
  }

  /**
   * Ends every request in flight because the gateway is shutting down: a stream with its format's
   * error event, a request still waiting for its answer with a 503 (see {@link ClientWatch.shutDown}).
   */
  shutDown(): void {
    for (const request of [...this.#requests]) request.shutDown();
  }

  /** Resolves once no request is in flight, or after `timeoutMs` whatever remains. */
  settled(timeoutMs: number): Promise<void> {
    if (this.#requests.size === 0) return Promise.resolve();
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
