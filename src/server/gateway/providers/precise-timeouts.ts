import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors, type Dispatcher } from 'undici';

type Controller = Dispatcher.DispatchController;
type Handler = Dispatcher.DispatchHandler;

/**
 * Keeps the headers and body timeouts of an exchange on Node's own timers. undici runs them on a
 * coarse clock that ticks every 0.5 s, so a deployment's `timeout_ms` could fire up to a second late;
 * here it fires on time. The same semantics as undici's: the headers wait starts when the request is
 * written, the body wait restarts with every chunk, and a body paused by a slow reader never times out.
 */
class TimedHandler implements Handler {
  #timer: NodeJS.Timeout | undefined;
  #controller: Controller | undefined;
  #phase: 'headers' | 'body' = 'headers';

  constructor(
    private readonly inner: Handler,
    private readonly headersMs: number,
    private readonly bodyMs: number,
  ) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.#controller = controller;
    this.#arm(this.headersMs);
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Controller, statusCode: number, headers: IncomingHttpHeaders, socket: Duplex): void {
    this.#clear();
    this.inner.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    // A 1xx is not the answer: the wait for headers goes on.
    if (statusCode >= 200) {
      this.#phase = 'body';
      this.#arm(this.bodyMs);
    }
    this.inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.#timer?.refresh();
    this.inner.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: IncomingHttpHeaders): void {
    this.#clear();
    this.inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.#clear();
    this.inner.onResponseError?.(controller, error);
  }

  #arm(ms: number): void {
    this.#clear();
    if (ms <= 0) return;
    this.#timer = setTimeout(() => this.#expire(ms), ms);
    // The socket keeps the process alive while the exchange runs; the timer need not.
    this.#timer.unref();
  }

  #expire(ms: number): void {
    const controller = this.#controller;
    if (controller === undefined) return;
    if (this.#phase === 'body' && controller.paused) {
      this.#timer?.refresh();
      return;
    }
    this.#timer = undefined;
    controller.abort(
      this.#phase === 'headers'
        ? new errors.HeadersTimeoutError(`no response headers within ${ms} ms`)
        : new errors.BodyTimeoutError(`no response data for ${ms} ms`),
    );
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * An undici interceptor that takes over `headersTimeout` and `bodyTimeout` from the dispatch
 * options (undici's own are turned off) and enforces them with {@link TimedHandler}.
 */
export const preciseTimeouts: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  const headersMs = options.headersTimeout ?? 0;
  const bodyMs = options.bodyTimeout ?? 0;
  if (headersMs <= 0 && bodyMs <= 0) return dispatch(options, handler);
  // Only the timeouts given move here; one left unset keeps undici's default.
  const taken = { ...(headersMs > 0 ? { headersTimeout: 0 } : {}), ...(bodyMs > 0 ? { bodyTimeout: 0 } : {}) };
  return dispatch({ ...options, ...taken }, new TimedHandler(handler, headersMs, bodyMs));
};
