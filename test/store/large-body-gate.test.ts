import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// Bodies are read whole before they are handled: many large ones at once would hold gigabytes. A few
// are read at a time; the rest wait unread in their sockets, and small requests never wait for them.

const LARGE = 2 * 1024 * 1024;
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** An apply of LARGE bytes whose body is only begun: it holds a turn for as long as it is open. */
function stalledLargeApply(url: URL, token = ADMIN_TOKEN): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /v1/apply HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${token}\r\n` +
          `content-type: application/json\r\ncontent-length: ${LARGE}\r\n\r\n{"scope":`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** A whole apply of one document of about LARGE bytes. */
function largeApply(base: string, key: string): Promise<Response> {
  const body = JSON.stringify({
    scope: { namespace: 'big', branch: 'main' },
    documents: [{ key, content: 'x'.repeat(LARGE - 200) }],
  });
  return fetch(`${base}/v1/apply`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body,
  });
}

describe('large request bodies', () => {
  const socket = socketStore({ limits: { body_bytes: 8 * 1024 * 1024, document_bytes: 4 * 1024 * 1024 } });

  it('are handled a few at a time, the others waiting unread, while small requests go on', async () => {
    const url = new URL(socket.base);
    const stalled = await Promise.all(Array.from({ length: 4 }, () => stalledLargeApply(url)));
    await new Promise((resolve) => setTimeout(resolve, 100));

    let answered = false;
    const waiting = largeApply(socket.base, 'a.txt').then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    // Small requests never wait for a turn.
    const small = await socket.send('POST', '/v1/apply', {
      scope: { namespace: 'big', branch: 'main' },
      documents: [{ key: 'small.txt', content: 'hi' }],
    });
    expect(small.status).toBe(200);

    // One of the four leaves: its turn goes to the waiting one.
    stalled[0]!.destroy();
    const response = await waiting;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { changes: Array<{ key: string }> }).changes.map((c) => c.key)).toEqual([
      'a.txt',
    ]);
  });

  it('are not held up by a client that left while it waited', async () => {
    const url = new URL(socket.base);
    const stalled = await Promise.all(Array.from({ length: 4 }, () => stalledLargeApply(url)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Waits, then leaves: its place in line must not take a turn when one comes.
    const leaver = await stalledLargeApply(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    leaver.destroy();
    for (const held of stalled) held.destroy();
    const answers = await Promise.all(
      ['b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt'].map((key) => largeApply(socket.base, key)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('a large body waiting behind clients stuck sending theirs', () => {
  const socket = socketStore({ limits: { body_bytes: 8 * 1024 * 1024, document_bytes: 4 * 1024 * 1024 } });

  it('is told the server is busy within a quarter of the request timeout, not timed out as slow', async () => {
    // server.request_timeout_ms of 2 s: a turn is waited for half a second at most.
    socket.store.app.server.headersTimeout = 2000;
    socket.store.app.server.requestTimeout = 2000;
    const url = new URL(socket.base);
    const stalled = await Promise.all(Array.from({ length: 4 }, () => stalledLargeApply(url)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const busy = await largeApply(socket.base, 'busy.txt');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(((await busy.json()) as { error: { message: string } }).error.message).toBe(
      'the server is reading 4 other large request bodies, and this one waited 0.5 s for its turn without one ending; send it again shortly',
    );
    for (const held of stalled) held.destroy();
    expect((await largeApply(socket.base, 'again.txt')).status).toBe(200);
  });
});

describe('large request bodies of a token that may not send them', () => {
  const READER = 'st-reader-token-0123456789abcdef';
  const socket = socketStore({
    limits: { body_bytes: 8 * 1024 * 1024, document_bytes: 4 * 1024 * 1024 },
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['*'] },
    ],
  });

  it('take no turn: a read-only or unknown token is refused before its body is read', async () => {
    const url = new URL(socket.base);
    const answers: string[] = [];
    for (const token of [READER, READER, 'st-unknown-token-0123456789abcd', READER]) {
      const stalled = await stalledLargeApply(url, token);
      stalled.on('data', (chunk: Buffer) => answers.push(chunk.toString().split('\r\n')[0]!));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers.sort()).toEqual([
      'HTTP/1.1 401 Unauthorized',
      'HTTP/1.1 403 Forbidden',
      'HTTP/1.1 403 Forbidden',
      'HTTP/1.1 403 Forbidden',
    ]);
    // With their sockets still open, a writer's large body has a turn at once (not after their timeout).
    const response = await largeApply(socket.base, 'writer.txt');
    expect(response.status).toBe(200);
  });
});
