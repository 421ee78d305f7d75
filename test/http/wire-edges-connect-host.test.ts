import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { addressOf, closedWithin, collect, openSocket, parseAnswer, rawRequest, UUID } from '../foundation/raw-http.js';

/** The shared error shape with a request id; the parsed body. */
function sharedError(answer: { status: number; headers: Readonly<Record<string, string>>; body: string }) {
  expect(answer.headers['x-request-id']).toMatch(UUID);
  const body = JSON.parse(answer.body) as { error: { type: string; message: string; code: number } };
  expect(body.error.code).toBe(answer.status);
  return body.error;
}

/** Request targets and Host headers a browser never sends, over real sockets on both services. */
describe('CONNECT, absolute-form targets and repeated Host headers', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ server: { allowed_hosts: ['gatehouse.test'] } });
  });
  afterAll(async () => {
    await servers.stop();
  });
  const urls = () => [servers.gatewayUrl, servers.storeUrl];
  const auth = `authorization: Bearer ${TEST_STORE_TOKEN}\r\n`;

  it('answers CONNECT with a 400 naming the method, then closes the socket', async () => {
    for (const url of urls()) {
      const { port } = addressOf(url);
      const socket = await openSocket(url);
      const received = collect(socket);
      socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
      const answer = parseAnswer((await received).data);
      expect(answer, url).toBeDefined();
      expect(answer!.status).toBe(400);
      expect(answer!.headers.connection).toBe('close');
      const error = sharedError(answer!);
      expect(error.type).toBe('invalid_request_error');
      expect(error.message).toContain('CONNECT');
      expect(await closedWithin(socket, 10_000)).toBe(true);
    }
  });

  it('answers OPTIONS * as a question about the server, not a path a route answers', async () => {
    for (const url of urls()) {
      const { port } = addressOf(url);
      const answer = await rawRequest(
        url,
        `OPTIONS * HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${auth}connection: close\r\n\r\n`,
      );
      expect(answer.status, url).toBe(404);
      const error = sharedError(answer);
      expect(error.message).toBe('no route OPTIONS *: ask about a path instead (OPTIONS <path>)');
    }
  });

  it('checks the authority of an absolute-form target like Host', async () => {
    for (const url of urls()) {
      const { port } = addressOf(url);
      const foreign = await rawRequest(
        url,
        `GET http://evil.example/healthz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${auth}connection: close\r\n\r\n`,
      );
      expect(foreign.status, url).toBe(403);
      const error = sharedError(foreign);
      expect(error.type).toBe('permission_error');
      expect(error.message).toContain("host 'evil.example'");
      for (const authority of [`127.0.0.1:${port}`, 'localhost', 'gatehouse.test', '[::1]']) {
        const allowed = await rawRequest(
          url,
          `GET http://${authority}/healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n${auth}connection: close\r\n\r\n`,
        );
        expect(allowed.status, `${url} ${authority}`).toBe(200);
      }
    }
  });

  it('refuses a repeated Host header in either order, and an empty one, with 400', async () => {
    for (const url of urls()) {
      for (const hosts of [
        ['127.0.0.1', 'evil.example'],
        ['evil.example', '127.0.0.1'],
        ['127.0.0.1', '127.0.0.1'],
      ]) {
        const lines = hosts.map((host) => `Host: ${host}\r\n`).join('');
        const answer = await rawRequest(url, `GET /healthz HTTP/1.1\r\n${lines}${auth}connection: close\r\n\r\n`);
        expect(answer.status, `${url} ${hosts.join(', ')}`).toBe(400);
        expect(sharedError(answer).message).toContain('Host header is sent more than once');
      }
      const empty = await rawRequest(url, `GET /healthz HTTP/1.1\r\nhost: \r\n${auth}connection: close\r\n\r\n`);
      expect(empty.status, url).toBe(400);
      expect(sharedError(empty).message).toContain('Host header is empty');
    }
  });
});
