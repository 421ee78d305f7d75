import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOneDeployment, type OneDeployment } from '../support/one-deployment.js';

/**
 * Without Accept-Encoding an upstream may compress its answer, which the gateway read as text: a
 * broken answer, retried six times and quoted as binary. It asks for identity, and a server that
 * compresses anyway is refused by name, once.
 */
describe('compression of upstream answers', () => {
  let compressing: Server;
  let gateway: OneDeployment;
  const received: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    compressing = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      request.on('end', () => {
        const body = { id: 'chatcmpl-1', object: 'chat.completion', choices: [] };
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify(body)));
      });
    });
    await new Promise<void>((resolve) => compressing.listen(0, '127.0.0.1', resolve));
    const port = (compressing.address() as AddressInfo).port;
    gateway = await startOneDeployment('gzip-model', `http://127.0.0.1:${port}/v1`, {
      max_retries: 2,
      retry_backoff_ms: 20,
    });
  });
  afterAll(async () => {
    await gateway?.servers.stop();
    await new Promise<void>((resolve) => compressing.close(() => resolve()));
  });

  it('asks for identity, and refuses a compressed answer by name without retrying it', async () => {
    for (const stream of [false, true]) {
      received.length = 0;
      const answer = await gateway.chat(stream);
      expect({ stream, status: answer.status }).toEqual({ stream, status: 502 });
      const { error } = (await answer.json()) as { error: { message: string } };
      expect(error.message).toContain("Content-Encoding 'gzip'");
      expect(received).toHaveLength(1);
      expect(received[0]!['accept-encoding']).toBe('identity');
    }
  });
});
