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
    const turn = (): void => {
      request.raw.off('close', leave);
      this.#start(reply);
      done();
    };
    const leave = (): void => {
      const index = this.#waiting.indexOf(turn);
      if (index !== -1) this.#waiting.splice(index, 1);
    };
    request.raw.once('close', leave);
    this.#waiting.push(turn);
  }

  #start(reply: FastifyReply): void {
    this.#running += 1;
    reply.raw.once('close', () => {
      this.#running -= 1;
      this.#waiting.shift()?.();
    });
  }
}
