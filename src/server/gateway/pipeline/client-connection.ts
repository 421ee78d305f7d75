import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { EmitterSignal } from '../providers/types.js';

/**
 * Watches one response: when it closes before it was completely sent (the client went away), the
 * upstream call is cancelled; when it closes at all, `onClose` runs — the pipeline's one finishing
 * point, reached exactly once on every path (answer, error, stream end, client gone).
 *
 * An EventEmitter (undici takes one as its signal) rather than an AbortController, which costs ten
 * times more per request; a class with one bound listener, since closures per request cost more.
 */
export class ClientWatch extends EventEmitter implements EmitterSignal {
  aborted = false;

  constructor(
    private readonly raw: ServerResponse,
    private readonly onClose: (completed: boolean) => void,
  ) {
    super();
    this.closed = this.closed.bind(this);
    raw.once('close', this.closed);
  }

  /** Cancels the upstream call (once). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }

  private closed(): void {
    const completed = this.raw.writableFinished;
    if (!completed) this.abort();
    this.onClose(completed);
  }
}
