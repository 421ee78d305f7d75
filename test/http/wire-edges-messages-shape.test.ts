import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { collect, openSocket, parseAnswer, rawRequest, UUID, type RawAnswer } from '../foundation/raw-http.js';

/** Anthropic's error envelope (`type: "error"` beside `error`), with the request id in both headers. */
function expectAnthropicError(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers['x-request-id']).toMatch(UUID);
  expect(answer.headers['request-id']).toBe(answer.headers['x-request-id']);
  const body = JSON.parse(answer.body) as { type: string; error: { type: string; message: string; code: number } };
  expect(body.type).toBe('error');
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code: status });
  return body;
}

/** Answers Node's parser writes (before any route runs) on /v1/messages, in the path's own envelope. */
describe('parser-level answers under /v1/messages', () => {
  let servers: TempServers;
  let key: string;
  beforeAll(async () => {
    servers = await startTempServers({ server: { request_timeout_ms: 1_000, headers_timeout_ms: 1_000 } });
    key = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['*'] })).body.key as string;
  });
  afterAll(async () => {
    await servers.stop();
  });
  const paths = ['/v1/messages', '/v1/messages/count_tokens'];

  it('a Content-Length that is not a number', async () => {
    for (const path of paths) {
      const answer = await rawRequest(
        servers.gatewayUrl,
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: abc\r\n\r\n{}`,
      );
      expect(expectAnthropicError(answer, 400).error.message).toMatch(/^malformed HTTP request: /);
    }
  });

  it('a broken chunked body, keeping the request id the client sent', async () => {
    const id = '0b0e6a8e-6a55-4d43-9c8e-0d3a8f8a1c11';
    for (const path of paths) {
      const answer = await rawRequest(
        servers.gatewayUrl,
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-request-id: ${id}\r\ncontent-type: application/json\r\n` +
          'transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      );
      expectAnthropicError(answer, 400);
      expect(answer.headers['x-request-id']).toBe(id);
    }
  });

  it('a URI and headers over the size limit', async () => {
    const longUri = await rawRequest(
      servers.gatewayUrl,
      `POST /v1/messages?x=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
    );
    expectAnthropicError(longUri, 414);
    const bigHeader = await rawRequest(
      servers.gatewayUrl,
      `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectAnthropicError(bigHeader, 431);
  });

  it('a body that does not arrive in time', async () => {
    const socket = await openSocket(servers.gatewayUrl);
    const received = collect(socket, 15_000);
    socket.write(
      `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${key}\r\n` +
        'content-type: application/json\r\ncontent-length: 100\r\n\r\n{',
    );
    const answer = parseAnswer((await received).data);
    expect(answer).toBeDefined();
    expect(expectAnthropicError(answer!, 408).error.message).toContain('server.request_timeout_ms');
  });

  it('other paths keep the shared shape', async () => {
    const answer = await rawRequest(
      servers.gatewayUrl,
      'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: abc\r\n\r\n{}',
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).not.toHaveProperty('type');
    expect(answer.headers['request-id']).toBeUndefined();
  });
});
