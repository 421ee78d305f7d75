import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** A body at least this large (or of unknown length) waits for a turn before it is read. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** Large bodies read and handled at once. */
const LARGE_BODIES_AT_ONCE = 4;
/** Large requests that may wait for a turn; past this they are told to come back. */
const LARGE_BODIES_WAITING = 256;

/**
 * Lets a few large request bodies be read and handled at a time. Every body is read whole into
 * memory, then parsed (and a store write keeps its documents while it runs), so a hundred clients
 * sending 10 MB each at once would hold gigabytes. A request past its turn is not read at all until
 * one ends: its bytes wait in the client's socket, where TCP holds them back.
 */
export class LargeBodyGate {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  /**
   * `requestTimeoutMs`: the server's whole-request timeout now (0 for none). A request waits for its
   * turn a quarter of it at most: its body would otherwise be timed out as if its client were slow,
   * while clients stuck sending other large bodies held every turn. It is told the server is busy.
   */
  constructor(private readonly requestTimeoutMs: () => number = () => 0) {}

  /**
   * Whether this request must take a turn: its declared length, or a body of unknown length. One
   * declared past the route's limit is refused (413) at once, without waiting.
   */
  static applies(request: FastifyRequest): boolean {
    const headers = request.headers;
    if (headers['transfer-encoding'] !== undefined) return true;
    const length = headers['content-length'];
    if (length === undefined || length.length < 7) return false;
    const bytes = Number(length);
    return bytes >= LARGE_BODY_BYTES && bytes <= (request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY);
  }

  /**
   * Calls `done` once the request may be read (or with the error that refuses it). The turn ends when
   * the response closes, whatever ended it; a client that leaves while waiting gives its place up.
   */
  admit(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    if (this.#running < LARGE_BODIES_AT_ONCE) {
      this.#start(reply);
      done();
      return;
    }
    if (this.#waiting.length >= LARGE_BODIES_WAITING) {
      done(
        new AppError(
          'service_unavailable',
          `${LARGE_BODIES_AT_ONCE} large request bodies are being handled and ${LARGE_BODIES_WAITING} wait; send it again shortly`,
          { headers: { 'retry-after': '1' } },
        ),
      );
      return;
    }
    const waitMs = this.#longestWaitMs();
    const turn = (): void => {
      clearTimeout(timer);
      request.raw.off('close', leave);
      this.#start(reply);
      done();
    };
    const leave = (): boolean => {
      clearTimeout(timer);
      const index = this.#waiting.indexOf(turn);
      if (index !== -1) this.#waiting.splice(index, 1);
      return index !== -1;
    };
    const timer = setTimeout(() => {
      request.raw.off('close', leave);
      if (!leave()) return;
      done(
        new AppError(
          'service_unavailable',
          `the server is reading ${LARGE_BODIES_AT_ONCE} other large request bodies, and this one waited ${(waitMs / 1000).toFixed(waitMs < 10_000 ? 1 : 0)} s for its turn without one ending; send it again shortly`,
          { headers: { 'retry-after': '2' } },
        ),
      );
    }, waitMs);
    request.raw.once('close', leave);
    this.#waiting.push(turn);
  }

  /** How long a request may wait for its turn: a quarter of the request timeout, 15 s without one. */
  #longestWaitMs(): number {
    const timeout = this.requestTimeoutMs();
    return timeout > 0 ? Math.max(250, Math.floor(timeout / 4)) : 15_000;
  }

  #start(reply: FastifyReply): void {
    this.#running += 1;
    reply.raw.once('close', () => {
      this.#running -= 1;
      this.#waiting.shift()?.();
    });
  }
}
