import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOneDeployment, type OneDeployment } from '../support/one-deployment.js';

/**
 * A stream's relay stops at its last event (`[DONE]`), just before the body's end arrives. Aborting the
 * body there closed the upstream connection after every stream, so each next stream opened a new one
 * (over TLS, a handshake each). The rest is read, within bounds, and the connection is kept.
 */
describe('upstream connections after a stream', () => {
  let upstream: Server;
  let gateway: OneDeployment;
  let connections = 0;
  /** How the next answer ends after its `[DONE]`: at once, a little later, or never. */
  let ending: 'soon' | 'never' = 'soon';
  /** Settles once the last answer's body has been sent whole. */
  let lastSent: Promise<void> = Promise.resolve();
  const open = new Set<ServerResponse>();

  const chunk = (content: string): string =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    })}\n\n`;

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      request.resume();
      lastSent = new Promise((resolve) => response.once('finish', () => resolve()));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(chunk('Hello'));
        response.write(
          `data: ${JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
            usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
          })}\n\n`,
        );
        response.write('data: [DONE]\n\n');
        // The end comes in a packet of its own, after the last event, as servers send it.
        if (ending === 'soon') setTimeout(() => response.end(), 20);
        else {
          open.add(response);
          response.on('close', () => open.delete(response));
        }
      });
    });
    upstream.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await startOneDeployment('sse-model', `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`);
  });
  beforeEach(() => {
    connections = 0;
  });
  afterAll(async () => {
    await gateway?.servers.stop();
    for (const response of open) response.destroy();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  const stream = async (): Promise<string> => {
    const answer = await gateway.chat(true);
    expect(answer.status).toBe(200);
    return answer.text();
  };

  it('keeps the connection for the next stream when the body ends after its last event', async () => {
    ending = 'soon';
    for (let i = 0; i < 5; i += 1) {
      expect(await stream()).toContain('data: [DONE]');
      // The body ends 20 ms after [DONE]: the next stream is sent once it has (and the gateway has read
      // that end from a local socket), when the connection is free again.
      await lastSent;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(connections).toBe(1);
  });

  it('closes a connection whose body goes on after the last event, once the bound has passed', async () => {
    ending = 'never';
    expect(await stream()).toContain('data: [DONE]');
    // The gateway stopped reading it: the connection was closed, not held.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(open.size).toBe(0);
    ending = 'soon';
  });
});
