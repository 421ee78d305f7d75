import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WHOLE_ANSWER_BYTES } from '../../src/server/gateway/providers/upstream-body.js';
import { startOneDeployment, type OneDeployment } from '../support/one-deployment.js';

/**
 * An upstream that never stops sending a JSON answer (each chunk restarting the silence timeout) made
 * the gateway hold all of it: gigabytes, retried as a connection failure and downloaded again. An
 * answer read whole is cut at MAX_WHOLE_ANSWER_BYTES and answered 502 at once, without a retry.
 */
describe('an upstream answer read whole that does not end', () => {
  let endless: Server;
  let gateway: OneDeployment;
  let requests = 0;
  let sentBytes = 0;
  /** The status of the endless answer: a 200, or a 500 whose error body does not end. */
  let status = 200;

  beforeAll(async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    endless = createServer((request, response) => {
      requests += 1;
      request.resume();
      response.writeHead(status, { 'content-type': 'application/json' });
      response.write('{"id":"chatcmpl-1","padding":"');
      const more = (): void => {
        // Bounded, so the test stops by itself whatever the gateway does.
        while (!response.destroyed && sentBytes < 2 * MAX_WHOLE_ANSWER_BYTES) {
          sentBytes += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end('"}');
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const port = (endless.address() as AddressInfo).port;
    gateway = await startOneDeployment('endless-model', `http://127.0.0.1:${port}/v1`, {
      max_retries: 2,
      retry_backoff_ms: 20,
    });
  });
  afterAll(async () => {
    await gateway?.servers.stop();
    endless.closeAllConnections();
    await new Promise<void>((resolve) => endless.close(() => resolve()));
  });

  it('is cut at the bound and answered 502 without a retry', async () => {
    const answer = await gateway.chat();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-should-retry')).toBe('false');
    const { error } = (await answer.json()) as { error: { message: string; upstream: { type: string } } };
    expect(error.message).toBe('openai upstream answered 200 with a body larger than 256 MiB, not read further');
    expect(error.upstream.type).toBe('answer_too_large');
    expect(requests).toBe(1);
    expect(sentBytes).toBeLessThan(2 * MAX_WHOLE_ANSWER_BYTES);
  });

  it('reads an error body to 1 MiB, and does not retry the failure', async () => {
    status = 500;
    requests = 0;
    sentBytes = 0;
    const answer = await gateway.chat();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      'a body larger than 1 MiB, not read further',
    );
    // A 500 is retried (max_retries 2) unless its body is what failed.
    expect(requests).toBe(1);
    expect(sentBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
