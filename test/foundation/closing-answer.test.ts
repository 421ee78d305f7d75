import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN } from '../support/temp-servers.js';

// A request that reaches a server after its shutdown began (on a connection kept alive) is answered
// 503 in the shared error shape with its x-request-id, like every other answer; the request that was
// in flight when shutdown began is still answered in full.

describe('a request arriving while the server shuts down', () => {
  it('is 503 in the shared shape with an x-request-id, after the request in flight got its answer', async () => {
    const servers = await startTempServers();
    const { port } = new URL(servers.storeUrl);
    const body = JSON.stringify({ scope: { namespace: 'closing' }, documents: [{ key: 'a', content: 'x' }] });
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const head =
      `POST /v1/apply HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TEST_STORE_TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    socket.write(head + body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const stopping = servers.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(
      `${body.slice(10)}GET /v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${TEST_STORE_TOKEN}\r\n\r\n`,
    );
    await ended;
    await stopping;

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[1]).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toEqual({
      error: {
        type: 'service_unavailable',
        message: 'the server is shutting down; send the request again once it is back',
        code: 503,
      },
    });
  });
});
