import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { openSocket, UUID, type RawAnswer } from './raw-http.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads answers off one kept-alive connection, in order. */
function answers(socket: Socket): () => Promise<RawAnswer> {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  socket.on('close', () => wake?.());
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = buffered.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffered.length >= end + 4 + length) {
          const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
          buffered = buffered.subarray(end + 4 + length);
          return { status: Number(head[0]!.split(' ')[1]), headers, body };
        }
      }
      if (socket.destroyed) throw new Error(`connection closed; received ${buffered.toString('latin1')}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

/** Writes `text` in `parts` chunks with a pause after each, so each arrives in its own TCP packet. */
async function writeInParts(socket: Socket, text: string, parts: number): Promise<void> {
  const size = Math.ceil(text.length / parts);
  for (let at = 0; at < text.length && !socket.destroyed; at += size) {
    socket.write(text.slice(at, at + size));
    await sleep(15);
  }
}

function expectShared(answer: RawAnswer, status: number): string {
  expect(answer.status).toBe(status);
  expect(answer.headers['x-request-id']).toMatch(UUID);
  const body = JSON.parse(answer.body) as { error: { type: string; message: string; code: number } };
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code: status });
  return body.error.message;
}

const longUri = `GET /${'a'.repeat(20_000)}?q=${'b'.repeat(4_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`;
const bigHeader = `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(24_000)}\r\n\r\n`;

/**
 * An overlong request URI is 414 and overlong headers 431, in the shared shape with a request id, on
 * both services, however the client's writes split the request line into TCP packets (Node's parser
 * reports both as a header overflow and shows only the packet it was reading).
 */
describe('oversized request lines and headers, split across packets', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers.stop());
  const urls = () => [servers.gatewayUrl, servers.storeUrl];

  it('an overlong URI is a 414 whether it arrives in one packet, a few or many', async () => {
    for (const url of urls()) {
      for (const parts of [1, 3, 12, 40]) {
        const socket = await openSocket(url);
        const next = answers(socket);
        await writeInParts(socket, longUri, parts);
        const message = expectShared(await next(), 414);
        expect(message, `${url} in ${parts} parts`).toBe('the request URI is longer than the server accepts');
        socket.destroy();
      }
    }
  });

  it('overlong headers stay a 431, split or not, also after a request line that came in pieces', async () => {
    const lineInPieces = `GET /${'c'.repeat(3_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(24_000)}\r\n\r\n`;
    for (const url of urls()) {
      for (const [text, parts] of [
        [bigHeader, 1],
        [bigHeader, 12],
        [lineInPieces, 20],
      ] as const) {
        const socket = await openSocket(url);
        const next = answers(socket);
        await writeInParts(socket, text, parts);
        expect(expectShared(await next(), 431), `${url} in ${parts} parts`).toMatch(/^the request headers are larger/);
        socket.destroy();
      }
    }
  });

  it('on a kept-alive connection, a split overlong URI after earlier requests (bodies with line feeds) is a 414', async () => {
    const posts = [
      { url: servers.gatewayUrl, path: '/internal/api-keys', auth: TEST_MASTER_KEY, body: '{\n"name": "kept"\n}\n' },
      {
        url: servers.storeUrl,
        path: '/v1/apply',
        auth: TEST_STORE_TOKEN,
        body: '{\n"scope": {"namespace": "split", "branch": "main"},\n"documents": [{"key": "a.txt", "content": "x\\ny"}]\n}',
      },
    ];
    for (const { url, path, auth, body } of posts) {
      const socket = await openSocket(url);
      const next = answers(socket);
      // A head in two packets: its request line ends before the head does.
      socket.write('GET /healthz HTTP/1.1\r\nhost: 127');
      await sleep(15);
      socket.write('.0.0.1\r\n\r\n');
      expect((await next()).status).toBe(200);
      const post =
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${auth}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
      socket.write(post);
      await sleep(15);
      socket.write(body);
      expect((await next()).status).toBeLessThan(300);
      await writeInParts(socket, longUri, 12);
      expectShared(await next(), 414);
      socket.destroy();
    }
  });
});
