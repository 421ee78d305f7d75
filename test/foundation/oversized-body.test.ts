import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN, startTempServers, type TempServers } from '../support/temp-servers.js';
import { addressOf, collect, openSocket, parseAnswer, UUID } from './raw-http.js';

const LIMIT = 4 * 1024 * 1024;
const BODY = 3 * LIMIT;
const CHUNK = Buffer.alloc(16 * 1024, 'a');

/**
 * A client that sends a body over the limit without `Expect: 100-continue` keeps writing after the
 * 413 went out; the server must let it finish (or give up gracefully) so that it reads the answer
 * instead of a reset.
 */
describe('oversized request bodies over a real socket', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({
      gateway: { body_limit_bytes: LIMIT },
      store: { limits: { body_bytes: LIMIT } },
    });
  });
  afterAll(async () => {
    await servers.stop();
  });

  const targets = () => [
    { url: servers.gatewayUrl, path: '/internal/api-keys', token: TEST_MASTER_KEY },
    { url: servers.storeUrl, path: '/v1/apply', token: TEST_STORE_TOKEN },
  ];

  /** Writes `total` bytes as fast as the socket takes them, stopping quietly once it closes. */
  async function writeBody(write: (chunk: Buffer) => boolean, waitDrain: () => Promise<void>, total: number) {
    for (let sent = 0; sent < total; sent += CHUNK.length) {
      if (!write(CHUNK)) await waitDrain();
    }
  }

  for (const framing of ['content-length', 'chunked'] as const) {
    it(`lets a raw client that sends a whole ${framing} body before reading, as urllib does, read the 413`, async () => {
      for (const target of targets()) {
        const socket = await openSocket(target.url);
        // Nothing is read until the body is out: what the client sees then is what the server left it.
        socket.pause();
        let writeError: string | undefined;
        socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
        const length = framing === 'content-length' ? `content-length: ${BODY}` : 'transfer-encoding: chunked';
        socket.write(
          `POST ${target.path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${target.token}\r\n` +
            `content-type: application/json\r\n${length}\r\n\r\n`,
        );
        await writeBody(
          (chunk) => {
            if (socket.destroyed) return true;
            if (framing === 'content-length') return socket.write(chunk);
            return socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`);
          },
          () =>
            new Promise<void>((resolve) => {
              socket.once('drain', resolve);
              socket.once('close', resolve);
            }),
          BODY,
        );
        if (!socket.destroyed && framing === 'chunked') socket.write('0\r\n\r\n');
        const { data } = await collect(socket);
        expect(writeError, `${target.url}: the body could not be sent`).toBeUndefined();
        const answer = parseAnswer(data);
        expect(answer, `${target.url}: ${data.toString('latin1').slice(0, 200)}`).toBeDefined();
        expect(answer!.status).toBe(413);
        expect(answer!.headers['x-request-id']).toMatch(UUID);
        expect(answer!.headers.connection).toBe('close');
        const body = JSON.parse(answer!.body) as { error: { type: string; message: string; code: number } };
        expect(body.error).toMatchObject({ type: 'payload_too_large', code: 413 });
        expect(body.error.message).toContain(String(LIMIT));
      }
    });
  }

  it("lets Node's http client, writing a big body without waiting, read the 413", async () => {
    for (const target of targets()) {
      const answer = await new Promise<{ status: number; body: string; id: string | undefined }>((resolve, reject) => {
        const request = httpRequest({
          ...addressOf(target.url),
          method: 'POST',
          path: target.path,
          headers: {
            authorization: `Bearer ${target.token}`,
            'content-type': 'application/json',
            'content-length': BODY,
          },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              id: response.headers['x-request-id'] as string | undefined,
            }),
          );
        });
        void writeBody(
          (chunk) => request.destroyed || request.write(chunk),
          () => new Promise<void>((resolve) => request.once('drain', resolve)),
          BODY,
        ).then(() => request.end());
      });
      expect(answer.status).toBe(413);
      expect(answer.id).toMatch(UUID);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'payload_too_large', code: 413 } });
    }
  });
});
