import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Node sets the response being written on its socket, and clears it once the response is done. */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Lets a closing server finish the requests in flight without waiting on connections that carry
 * none. Node's `closeIdleConnections()` skips sockets that never sent a request (browsers open such
 * preconnect sockets), so `close()` would wait for them until the headers timeout.
 *
 * Per connection only, nothing per request: at closing time a socket's in-flight response is the one
 * Node keeps on it, and the socket goes once that response has closed.
 */
export function closeQuietConnectionsOnClose(server: Server): {
  beginClosing(): void;
  /** Closing has begun: a request that still arrives is answered 503. */
  readonly closing: boolean;
  readonly tracked: number;
} {
  const open = new Set<HttpSocket>();
  let closing = false;
  server.on('connection', (socket: HttpSocket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  /** Destroys the socket once it carries no response; a pipelined request's response follows the first. */
  const destroyWhenQuiet = (socket: HttpSocket): void => {
    const inFlight = socket._httpMessage;
    if (inFlight) inFlight.once('close', () => setImmediate(() => destroyWhenQuiet(socket)));
    else socket.destroy();
  };
  return {
    beginClosing: () => {
      if (closing) return;
      closing = true;
      // A request that arrives on a kept-alive socket while closing is answered (503), then its socket
      // goes. Listened for from now on only: a second 'request' listener would make Node copy the
      // listener list on every request the server answers.
      server.on('request', (request: { socket: HttpSocket }, response: ServerResponse) => {
        response.once('close', () => setImmediate(() => destroyWhenQuiet(request.socket)));
      });
      for (const socket of open) destroyWhenQuiet(socket);
    },
    get closing() {
      return closing;
    },
    /** Connections being watched (open ones only, once their close events ran). */
    get tracked() {
      return open.size;
    },
  };
}
