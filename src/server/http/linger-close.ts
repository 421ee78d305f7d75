import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How much a closing connection may still receive, and for how long, before it is cut. */
export interface LingerLimits {
  readonly maxBytes: number;
  readonly maxMs: number;
}

/** Long enough for a local client to finish sending a body of a few times the limit. */
export const LINGER_MS = 5_000;
const CHECK_EVERY_MS = 100;

/**
 * Closes a connection whose client may still be sending: sends FIN after the answer, then reads and
 * discards what arrives until the client is done, `maxBytes` arrived or `maxMs` passed. Destroying
 * at once would make the kernel answer the client's next bytes with a reset, and clients that write
 * the whole body before reading (urllib, or Node's http once its write fails) never see the answer.
 */
export function lingerThenDestroy(socket: Socket, limits: LingerLimits, request?: IncomingMessage): void {
  if (socket.destroyed) return;
  const startBytes = socket.bytesRead;
  const startTime = Date.now();
  const timer = setInterval(() => {
    if (socket.bytesRead - startBytes > limits.maxBytes || Date.now() - startTime > limits.maxMs) socket.destroy();
  }, CHECK_EVERY_MS);
  timer.unref();
  // The client is done: close once the answer is flushed (nothing unread is left, so no reset).
  const finish = (): void => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  socket.once('close', () => clearInterval(timer));
  socket.once('end', finish);
  if (request && !request.complete) {
    // The rest of the body is nobody's: let it flow, and finish once the client has sent it all.
    request.removeAllListeners('data');
    request.once('end', finish);
    request.resume();
  } else if (request) {
    socket.once('finish', finish);
  }
  socket.end();
}

/** True when the request announces a body (a length above zero, or chunks). */
function announcesBody(request: IncomingMessage): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}

/**
 * Answers sent before the request body was read in full (a 413, or a 401 before a big upload) close
 * the connection with a lingering close instead of Node's immediate one, so the client reads them.
 */
export function lingerWhenBodyUnread(app: FastifyInstance, limits: LingerLimits): void {
  // Callback style: it runs on every response and settles almost all of them with two checks.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (raw.complete || !announcesBody(raw)) {
      done(null, payload);
      return;
    }
    reply.header('connection', 'close');
    const socket = raw.socket;
    // Node ends a `connection: close` response with destroySoon(): take that over for this socket only.
    socket.destroySoon = () => lingerThenDestroy(socket, limits, raw);
    done(null, payload);
  });
}
