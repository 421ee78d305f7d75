import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lets a closing server finish the requests in flight without waiting on connections that carry
 * none. Node's `closeIdleConnections()` skips sockets that never sent a request (browsers open such
 * preconnect sockets), so `close()` would wait for them until the headers timeout.
 */
export function closeQuietConnectionsOnClose(server: Server): { beginClosing(): void; readonly tracked: number } {
  const active = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    active.set(socket, 0);
    socket.once('close', () => active.delete(socket));
  });
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    const socket = request.socket;
    active.set(socket, (active.get(socket) ?? 0) + 1);
    response.once('close', () => {
      // A client that leaves mid-request closes its socket before the response closes: the socket is
      // gone from the map already, and setting it again would keep it (and its last request) forever.
      if (!active.has(socket)) return;
      const left = (active.get(socket) ?? 1) - 1;
      active.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  return {
    beginClosing: () => {
      closing = true;
      for (const [socket, requests] of active) if (requests === 0) socket.destroy();
    },
    /** Connections being watched (open ones only, once their close events ran). */
    get tracked() {
      return active.size;
    },
  };
}
