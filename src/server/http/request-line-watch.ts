import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { pendingResponse } from './pending-response.js';

const LINE_FEED = 0x0a;

/** Per connection: whether the request line of the head being received has ended (a line feed came). */
interface LineState {
  ended: boolean;
}

const states = new WeakMap<Socket, LineState>();

/**
 * Follows, on every connection, whether the request line of the head being received has ended.
 * Node reports an oversized request line and oversized headers alike (HPE_HEADER_OVERFLOW) and shows
 * only the packet it was reading; when the line came in several packets, this record tells which
 * one overflowed. Listening for data makes Node parse a connection's bytes from JavaScript rather
 * than straight from the socket, which costs a few microseconds per request.
 */
export function watchRequestLines(server: Server): void {
  server.on('connection', (socket: Socket) => {
    const state: LineState = { ended: false };
    states.set(socket, state);
    // Runs after Node parsed the chunk (its own listener came first).
    socket.on('data', (chunk: Buffer) => {
      if (pendingResponse(socket) !== undefined) {
        // This chunk ended a head or carried a body: the next head starts with a new request line.
        state.ended = false;
        return;
      }
      if (!state.ended && chunk.indexOf(LINE_FEED) !== -1) state.ended = true;
    });
  });
}

/**
 * True when the request line was still being received where the parser stopped (`parsed` bytes into
 * `packet`, the chunk it was reading): no line feed since the head began.
 */
export function requestLineOpen(socket: Socket, packet: Buffer | undefined, parsed: number | undefined): boolean {
  if (!packet) return false;
  const before = packet.subarray(0, parsed ?? packet.length);
  if (before.indexOf(LINE_FEED) !== -1) return false;
  const state = states.get(socket);
  // A connection not followed (no watch installed): only a packet that starts the line can tell.
  if (state === undefined) return /^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'));
  return !state.ended;
}
