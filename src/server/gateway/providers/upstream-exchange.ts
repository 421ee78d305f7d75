import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { errors } from './undici-parts.js';
import type { CancelSignal } from './types.js';
import { UpstreamBody } from './upstream-body.js';

/**
 * One upstream HTTP exchange over undici's `dispatch` handler API instead of `Pool.request`.
 * `request` wraps every answer in a Node Readable (with its own abort-signal plumbing); for answers
 * that are read whole or relayed chunk by chunk that machinery was some 15 % of the gateway's CPU
 * per request in the benchmark. undici still does the HTTP: pooling, TLS and parsing.
 */

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/** A response whose headers arrived; its body is read once, whole (`text`) or as chunks (iteration). */
export interface UpstreamExchangeResponse {
  readonly status: number;
  readonly headers: UpstreamHeaders;
  readonly body: UpstreamBody;
}

export { UpstreamBody };

/** Calls `listener` once if `signal` aborts; returns the unsubscribe. */
function onCancel(signal: CancelSignal, listener: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  signal.once('abort', listener);
  return () => signal.off('abort', listener);
}

const enum Phase {
  Headers,
  /** Headers came, the body's first bytes not yet, and a request's deadline still bounds the wait. */
  FirstByte,
  Body,
  Done,
}

/**
 * The exchange's handler: settles the caller's promise when the final headers arrive, feeds the body,
 * and keeps the timeouts. They run on Node's own timers (undici's run on a clock that ticks every
 * 0.5 s, so a deployment's `timeout_ms` could fire up to a second late), with undici's semantics: the
 * wait for headers starts when the request is written, the body's restarts with every chunk, and a
 * body paused by a slow reader never times out. A request's deadline (`firstByteMs`) bounds the wait
 * up to the body's first bytes, not just its headers: many local servers send their headers before
 * the model's first token. It is the same one timer, set again only where the deadline is the shorter
 * wait. One object per exchange, with no closures per request: this is every upstream call's path.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | undefined;
  #body: UpstreamBody | undefined;
  #cancelled = false;
  #phase = Phase.Headers;
  #timer: NodeJS.Timeout | undefined;
  /** Headers and chunks received so far: whether any came while an expiry waited for its recheck. */
  #received = 0;
  /**
   * When the request went out, then when its headers came (0: not yet). Chunks do not move it: it is
   * read only when the client leaves before the answer or the headers come before a deadline, and a
   * clock read per chunk is not free.
   */
  #quietSince = 0;
  #receivedAtExpiry = -1;
  readonly #unsubscribe: () => void;

  constructor(
    signal: CancelSignal,
    private readonly timeoutMs: number,
    private readonly resolve: (response: UpstreamExchangeResponse) => void,
    private readonly reject: (error: Error) => void,
    /**
     * The longest wait for the body's first bytes, counted from the request (what a request's deadline
     * leaves it), when it differs from `timeoutMs`; the wait for headers alone is the shorter of the two.
     */
    private readonly firstByteMs: number = timeoutMs,
  ) {
    this.#unsubscribe = onCancel(signal, () => {
      this.#cancelled = true;
      const left = new Error('upstream call aborted by the client') as Error & { silentMs?: number };
      // How long the upstream had been silent: a client that gave up on a silent deployment says
      // something about it, one that left while the answer was arriving does not.
      if (this.#quietSince !== 0) left.silentMs = performance.now() - this.#quietSince;
      this.#controller?.abort(left);
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    this.#quietSince = performance.now();
    // undici starts a request once; were it started again, its first wait must not outlive it.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const waitMs = this.#headersWaitMs();
    if (this.#cancelled) controller.abort(new Error('upstream call aborted by the client'));
    else if (waitMs > 0) {
      this.#timer = setTimeout(expire, waitMs, this);
      // The socket keeps the process alive while the exchange runs; the timer need not.
      this.#timer.unref();
    }
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx informational: the real answer follows, and the wait for headers goes on
    this.#received += 1;
    if (this.firstByteMs === this.timeoutMs) {
      this.#phase = Phase.Body;
      this.#quietSince = performance.now();
      this.#timer?.refresh();
    } else this.#awaitFirstByte();
    this.#body = new UpstreamBody(controller);
    this.resolve({ status, headers, body: this.#body });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#received += 1;
    if (this.#phase === Phase.FirstByte) this.#bodyStarted();
    else this.#timer?.refresh();
    this.#body?.push(chunk);
  }

  /** The wait for headers: the deployment's timeout, or the deadline's when that ends first. */
  #headersWaitMs(): number {
    return this.timeoutMs > 0 && this.timeoutMs < this.firstByteMs ? this.timeoutMs : this.firstByteMs;
  }

  /**
   * Headers came under a deadline: the wait for the body's first bytes is the deadline's rest where
   * that ends before the deployment's timeoutMs would (the next deployment can still be tried, since
   * nothing reached the client), else the deployment's own.
   */
  #awaitFirstByte(): void {
    const now = performance.now();
    const leftMs = this.firstByteMs - (now - this.#quietSince);
    this.#quietSince = now;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.timeoutMs > 0 && this.timeoutMs <= leftMs) {
      this.#phase = Phase.Body;
      this.#timer = setTimeout(expire, this.timeoutMs, this).unref();
    } else {
      this.#phase = Phase.FirstByte;
      this.#timer = setTimeout(expire, Math.max(leftMs, 0), this).unref();
    }
  }

  /** The body began: the deadline no longer applies, and its silences are the deployment's timeoutMs. */
  #bodyStarted(): void {
    this.#phase = Phase.Body;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = this.timeoutMs > 0 ? setTimeout(expire, this.timeoutMs, this).unref() : undefined;
  }

  onResponseEnd(): void {
    this.#finish();
    this.#body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#finish();
    if (this.#body) this.#body.fail(error);
    else this.reject(error);
  }

  /**
   * The timer fired. After the event loop was blocked (a large answer parsed, a long chunking), timers
   * run before the socket reads that were waiting: an answer that arrived in time would be called a
   * timeout. So it is decided once those reads ran (setImmediate comes after them).
   */
  expired(): void {
    if (this.#controller === undefined || this.#phase === Phase.Done) return;
    this.#receivedAtExpiry = this.#received;
    setImmediate(recheck, this);
  }

  /** The upstream was silent for the whole timeout, unless something arrived meanwhile (a paused body is the reader's doing). */
  recheck(): void {
    const controller = this.#controller;
    if (controller === undefined || this.#phase === Phase.Done) return;
    // It arrived: the timer was refreshed with it.
    if (this.#received !== this.#receivedAtExpiry) return;
    if (this.#phase === Phase.Body && controller.paused) {
      this.#timer?.refresh();
      return;
    }
    this.#timer = undefined;
    controller.abort(
      this.#phase === Phase.Headers
        ? new errors.HeadersTimeoutError(`no response headers within ${this.#headersWaitMs()} ms`)
        : this.#phase === Phase.FirstByte
          ? new errors.BodyTimeoutError(`no response data within ${this.firstByteMs} ms of the request`)
          : new errors.BodyTimeoutError(`no response data for ${this.timeoutMs} ms`),
    );
  }

  #finish(): void {
    this.#phase = Phase.Done;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe();
  }
}

function expire(handler: ExchangeHandler): void {
  handler.expired();
}

function recheck(handler: ExchangeHandler): void {
  handler.recheck();
}

/** What is sent: undici's dispatch options without its timeouts, which the exchange keeps itself. */
export type UpstreamRequest = Pick<Dispatcher.DispatchOptions, 'method' | 'path' | 'headers' | 'body'>;

/**
 * Dispatches one request and resolves when the response's final (non-1xx) headers arrive. A
 * transport failure or a timeout before then rejects with undici's error (its `code` kept); an abort
 * of `signal` cancels the exchange at any point, body included. `timeoutMs` bounds the wait for
 * headers and every silence in the body (0: no timeout); `firstByteMs`, when it differs, the whole
 * wait from the request to the body's first bytes as well (a request's deadline): past it, the body
 * fails with a timeout before any of it was read.
 */
export function exchange(
  dispatcher: Dispatcher,
  request: UpstreamRequest,
  signal: CancelSignal,
  timeoutMs: number,
  firstByteMs: number = timeoutMs,
): Promise<UpstreamExchangeResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted before the upstream call started'));
      return;
    }
    const { method, path, headers, body } = request;
    dispatcher.dispatch(
      { method, path, headers, body, headersTimeout: 0, bodyTimeout: 0 },
      new ExchangeHandler(signal, timeoutMs, resolve, reject, firstByteMs),
    );
  });
}
