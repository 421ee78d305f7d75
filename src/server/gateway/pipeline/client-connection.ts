import type { ServerResponse } from 'node:http';
import type { EmitterSignal } from '../providers/types.js';

/**
 * Watches one response: when it closes before it was completely sent (the client went away), the
 * upstream call is cancelled; when it closes at all, `onClose` runs — the pipeline's one finishing
 * point, reached exactly once on every path (answer, error, stream end, client gone).
 *
 * Its own small signal rather than an AbortController (ten times the cost per request) or an
 * EventEmitter: a request has at most a couple of abort listeners at a time (the upstream call, a
 * retry's wait, a stream waiting for the socket to drain).
 */
export class ClientWatch implements EmitterSignal {
  aborted = false;
  /** The gateway is shutting down and ended this request itself: a server-side end, not the client's. */
  shuttingDown = false;
  #closed = false;
  #listeners: Array<() => void> = [];

  constructor(
    private readonly raw: ServerResponse,
    private readonly onClose: (completed: boolean) => void,
  ) {
    this.closed = this.closed.bind(this);
    // `on`, not `once`: a response closes once, and `once` would wrap the listener and remove it.
    raw.on('close', this.closed);
  }

  /** Calls `listener` once, when the client goes away. */
  once(_event: 'abort', listener: () => void): this {
    this.#listeners.push(listener);
    return this;
  }

  /** Removes a listener added with `once`. */
  off(_event: 'abort', listener: () => void): this {
    const index = this.#listeners.indexOf(listener);
    if (index !== -1) this.#listeners.splice(index, 1);
    return this;
  }

  /**
   * Ends the request because the gateway is shutting down: the upstream call is cancelled as for a
   * client that left, while the client, still there, gets the shutdown error (see the respond stage).
   */
  shutDown(): void {
    this.shuttingDown = true;
    this.abort();
  }

  /** Cancels the upstream call (once). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }

  private closed(): void {
    // A response closes once; the guard keeps the finishing point single even if 'close' came again.
    if (this.#closed) return;
    this.#closed = true;
    const completed = this.raw.writableFinished;
    if (!completed) this.abort();
    this.onClose(completed);
  }
}
