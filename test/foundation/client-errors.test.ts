import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { rawRequest, UUID, type RawAnswer } from './raw-http.js';

/** The shared error shape with code equal to the status, and a request id. */
function expectSharedError(answer: RawAnswer, status: number, type = 'invalid_request_error') {
  expect(answer.status).toBe(status);
  expect(answer.headers['x-request-id']).toMatch(UUID);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { error: { type: string; message: string; code: number } };
  expect(body.error).toMatchObject({ type, code: status });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

/** Requests Node's parser or Fastify's router refuse before any route runs, sent as raw bytes. */
describe('answers to malformed requests, on both services', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => {
    await servers.stop();
  });
  const urls = () => [servers.gatewayUrl, servers.storeUrl];

  it('a Content-Length that is not a number is a 400 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(
        url,
        'POST /v1/apply HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: abc\r\n\r\n{}',
      );
      const body = expectSharedError(answer, 400);
      expect(body.error.message).toMatch(/^malformed HTTP request: /);
      expect(answer.headers.connection).toBe('close');
    }
  });

  it('two different Content-Lengths are a 400 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(
        url,
        'POST /v1/apply HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
      );
      expectSharedError(answer, 400);
    }
  });

  it('a broken chunked body is a 400 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(
        url,
        'POST /v1/apply HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
          'transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      );
      expectSharedError(answer, 400);
    }
  });

  it('a bad percent escape in the path is a 400 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(url, 'GET /v1/%zz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
      const body = expectSharedError(answer, 400);
      expect(body.error.message).toContain('/v1/%zz');
    }
  });

  it('a percent escape in the query that does not decode is a 400 naming the parameter, not literal text', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(
        url,
        'GET /v1/state?namespace=a&checkpoint=%FF HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n',
      );
      const body = expectSharedError(answer, 400);
      expect(body.error.message).toBe('query parameter checkpoint is not valid: a percent escape does not decode');
    }
  });

  it('headers over the size limit are a 431 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(
        url,
        `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expectSharedError(answer, 431);
    }
  });

  it('a URI over the size limit is a 414 in the shared shape', async () => {
    for (const url of urls()) {
      const answer = await rawRequest(url, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
      expectSharedError(answer, 414);
    }
  });

  it('a request line that is not HTTP is a 400 in the shared shape', async () => {
    for (const url of urls()) {
      expectSharedError(await rawRequest(url, 'HELLO\r\n\r\n'), 400);
    }
  });

  it('an HTTP/1.1 request without Host is a 400 in the shared shape', async () => {
    for (const url of urls()) {
      const body = expectSharedError(await rawRequest(url, 'GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n'), 400);
      expect(body.error.message).toContain('Host');
    }
  });

  it("answers a wrong method or unknown path under /v1/messages with Anthropic's envelope", async () => {
    for (const path of ['/v1/messages', '/v1/messages/nothing', '/v1/messages?beta=true']) {
      const answer = await rawRequest(
        servers.gatewayUrl,
        `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(404);
      expect(answer.headers['x-request-id']).toMatch(UUID);
      expect(JSON.parse(answer.body)).toMatchObject({ type: 'error', error: { type: 'not_found_error', code: 404 } });
    }
    const other = await rawRequest(
      servers.gatewayUrl,
      'GET /v1/messagesx HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n',
    );
    expect(JSON.parse(other.body)).not.toHaveProperty('type');
    const badEscape = await rawRequest(
      servers.gatewayUrl,
      'POST /v1/messages/%zz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n',
    );
    expect(JSON.parse(badEscape.body)).toMatchObject({ type: 'error', error: { code: 400 } });
  });
});
