import { connect } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Requests in the buffer to replay: with both bodies cut at 64 KiB each, some 20 MB of frames. */
const BURST = 150;

/**
 * A client reconnecting to the live traffic stream gets the buffered requests it missed. They are
 * written at the pace it reads them: a stalled client holds the server's memory to one page of the
 * replay, not the whole buffer (a thousand requests with their bodies is some 100 MB), and the
 * stream then goes on live without a gap or a repeat.
 */
describe('the traffic stream replaying its buffer', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h.close());

  it('writes it at the pace the client reads, then goes on live with nothing missed or repeated', async () => {
    const { key } = await h.issueKey({ scopes: ['chat'] });
    const cursor = (await h.admin('GET', '/internal/traffic?limit=1')).body.last_seq as number;
    const prompt = 'x'.repeat(70_000);
    for (let i = 0; i < BURST; i += 1)
      await h
        .openaiClient(key)
        .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: `${i} ${prompt}` }] });

    // The server's side of the stream, to see what it holds for the client.
    let stream: ServerResponse | undefined;
    const server = h.servers.gateway.server;
    const capture = (request: IncomingMessage, response: ServerResponse): void => {
      if (request.url?.startsWith('/internal/traffic/stream')) stream = response;
    };
    server.on('request', capture);
    const { port } = new URL(h.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    socket.write(
      `GET /internal/traffic/stream?after=${cursor} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TEST_MASTER_KEY}\r\n\r\n`,
    );
    // Not read for a while: the kernel's buffers fill, and the server must stop there.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    server.off('request', capture);
    expect(stream).toBeDefined();
    expect(stream!.writableLength).toBeLessThan(1024 * 1024);

    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.resume();
    const seqs = () => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    while (seqs().length < BURST) await new Promise((resolve) => setTimeout(resolve, 20));
    // Caught up: the next request arrives live.
    await h
      .openaiClient(key)
      .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'live' }] });
    while (seqs().length < BURST + 1) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    expect(seqs()).toEqual(Array.from({ length: BURST + 1 }, (_, i) => cursor + 1 + i));
  }, 60_000);
});
