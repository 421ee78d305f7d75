import { once } from 'node:events';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeQuietConnectionsOnClose } from '../../src/server/http/graceful-close.js';

/**
 * The connection tracker behind graceful shutdown must forget every connection once it closed:
 * it holds sockets (and through them their last request), so one it keeps is memory kept forever.
 */
describe('connection tracking for graceful close', () => {
  const held: ServerResponse[] = [];
  const server = createServer((_request, response) => {
    if (_request.url === '/hold')
      held.push(response); // answered never: the client leaves first
    else response.end('ok');
  });
  const tracker = closeQuietConnectionsOnClose(server);

  afterEach(() => {
    held.length = 0;
    server.closeAllConnections();
    server.close();
  });

  it('forgets connections whose clients left in the middle of a request, and those that finished', async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    // Clients that disconnect while their request is still being answered.
    for (let i = 0; i < 20; i += 1) {
      const pending = httpRequest({ port, host: '127.0.0.1', path: '/hold', method: 'POST' });
      pending.on('error', () => undefined);
      pending.end('{}');
      await expect.poll(() => held.length).toBe(i + 1);
      pending.destroy();
    }
    // And clients whose requests completed before they closed.
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/done`, { headers: { connection: 'close' } });
      expect(await response.text()).toBe('ok');
    }

    await expect.poll(() => tracker.tracked, { timeout: 5000 }).toBe(0);
  });

  it("adds nothing to a request's path until closing begins, then answers what still arrives and closes its socket", async () => {
    // A second 'request' listener would have Node copy the listener list for every request served.
    expect(server.listenerCount('request')).toBe(1);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    tracker.beginClosing();
    tracker.beginClosing();
    expect(server.listenerCount('request')).toBe(2);
    const response = await new Promise<{ status: number; closed: Promise<unknown> }>((resolve, reject) => {
      const sent = httpRequest({ port, host: '127.0.0.1', path: '/late' }, (answer) => {
        answer.resume();
        resolve({ status: answer.statusCode ?? 0, closed: once(answer.socket, 'close') });
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(response.status).toBe(200);
    await response.closed;
  });
});
