import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The response Node holds for the socket's current request, once its headers were parsed. */
export function pendingResponse(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
}
