import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
 * An answer sent before the request body was read in full (a 413, a 401 or 403 before a big upload)
 * closes the connection with a lingering close instead of Node's immediate one, so the client reads
 * it. Only error answers can come that early (every route reads the whole body before it answers),
 * so the error handler calls this, and successful answers pay nothing.
 */
export function lingerIfBodyUnread(request: FastifyRequest, reply: FastifyReply, limits: LingerLimits): void {
  const raw = request.raw;
  if (raw.complete || !announcesBody(raw)) return;
  reply.header('connection', 'close');
  const socket = raw.socket;
  socket.destroySoon = () => lingerThenDestroy(socket, limits, raw);
}
