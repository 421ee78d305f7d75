import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancelSignal, EmitterSignal } from '../../../src/server/gateway/providers/types.js';
import { exchange } from '../../../src/server/gateway/providers/upstream-exchange.js';

/** An upstream whose routes write their answers by hand; records when a client connection closed early. */
let server: Server;
let pool: Pool;
const closedEarly: string[] = [];
const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/chunks': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const tick = () => {
      response.write(`chunk-${sent};`);
      sent += 1;
      if (sent === 5) response.end();
      else setTimeout(tick, 5);
    };
    tick();
  },
  '/many': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 2000; i += 1) response.write(`${String(i).padStart(6, '0')}\n`);
    response.end();
  },
  '/hang-after-first': (request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
    response.on('close', () => {
      if (!response.writableFinished) closedEarly.push(request.url!);
    });
  },
  '/never-answers': () => undefined,
  '/trickle': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const tick = () => {
      response.write(`${String(sent).padStart(4, '0')}\n`);
      sent += 1;
      if (sent === 150) response.end();
      else setTimeout(tick, 1);
    };
    tick();
  },
  '/hints-then-answer': (_request, response) => {
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    response.writeHead(201, { 'content-type': 'application/json', 'retry-after': '3' });
    response.end('{"ok":true}');
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => routes[request.url!]!(request, response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await pool.destroy();
  server.closeAllConnections();
  server.close();
});

const emitterSignal = (): EmitterSignal & { abort(): void } => {
  const signal = Object.assign(new EventEmitter(), {
    aborted: false,
    abort() {
      signal.aborted = true;
      signal.emit('abort');
    },
  });
  return signal;
};

const post = (path: string, signal: CancelSignal = emitterSignal(), timeoutMs = 10_000) =>
  exchange(
    pool,
    { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' },
    signal,
    timeoutMs,
  );

describe('upstream exchange over undici dispatch', () => {
  it('reads a body written in several chunks whole', async () => {
    const response = await post('/chunks');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(await response.body.text()).toBe('chunk-0;chunk-1;chunk-2;chunk-3;chunk-4;');
    expect(response.body.destroyed).toBe(true);
  });

  it('hands over a body whole without a promise only once it has all arrived', async () => {
    const slow = await post('/chunks');
    // The first chunk came with the headers; the rest follow every 5 ms.
    expect(slow.body.textIfComplete()).toBeUndefined();
    expect(await slow.body.text()).toBe('chunk-0;chunk-1;chunk-2;chunk-3;chunk-4;');

    const small = await post('/hints-then-answer');
    // Sent in one write with its headers: complete by the time the headers are handed over.
    expect(small.body.textIfComplete()).toBe('{"ok":true}');

    const given = await post('/hang-after-first');
    given.body.destroy();
    expect(given.body.textIfComplete()).toBeUndefined();
  });

  it('yields chunks as they arrive, before the body has ended', async () => {
    const response = await post('/chunks');
    const seen: string[] = [];
    for await (const chunk of response.body) seen.push(chunk.toString());
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.join('')).toBe('chunk-0;chunk-1;chunk-2;chunk-3;chunk-4;');
  });

  it('a slow reader still gets every chunk in order (undici is paused, not overrun)', async () => {
    const response = await post('/many');
    let text = '';
    let reads = 0;
    for await (const chunk of response.body) {
      text += chunk.toString();
      reads += 1;
      if (reads % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines.every((line, i) => Number(line) === i)).toBe(true);
  });

  it('an abort mid-body fails the reader and closes the upstream connection', async () => {
    const signal = emitterSignal();
    const response = await post('/hang-after-first', signal);
    const iterator = response.body[Symbol.asyncIterator]();
    expect((await iterator.next()).value.toString()).toBe('data: first\n\n');
    const pending = iterator.next();
    signal.abort();
    await expect(pending).rejects.toThrow(/aborted by the client/);
    await expect.poll(() => closedEarly.includes('/hang-after-first')).toBe(true);
  });

  it('a reader that stops early gives the body up and the upstream connection is closed', async () => {
    closedEarly.length = 0;
    const response = await post('/hang-after-first');
    for await (const chunk of response.body) {
      expect(chunk.toString()).toBe('data: first\n\n');
      break;
    }
    expect(response.body.destroyed).toBe(true);
    await expect.poll(() => closedEarly.includes('/hang-after-first')).toBe(true);
  });

  it('a signal aborted before the call rejects without sending anything', async () => {
    const signal = emitterSignal();
    signal.abort();
    await expect(post('/chunks', signal)).rejects.toThrow(/aborted before/);
  });

  it('an AbortSignal cancels a call waiting for headers', async () => {
    const controller = new AbortController();
    const pending = post('/never-answers', controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow(/aborted by the client/);
  });

  it("a headers timeout rejects with undici's code", async () => {
    await expect(post('/never-answers', emitterSignal(), 50)).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
  });

  it('a body paused for a slow reader does not time out, however long the reader takes', async () => {
    const response = await post('/trickle', emitterSignal(), 80);
    const lines: string[] = [];
    let first = true;
    for await (const chunk of response.body) {
      // Far longer than the timeout: the queue fills, undici stops reading, and the upstream's silence is ours.
      if (first) await new Promise((resolve) => setTimeout(resolve, 400));
      first = false;
      lines.push(...chunk.toString().trimEnd().split('\n'));
    }
    expect(lines).toHaveLength(150);
    expect(lines.at(-1)).toBe('0149');
  });

  it("a body silent for the timeout fails the reader with undici's code", async () => {
    const response = await post('/hang-after-first', emitterSignal(), 80);
    await expect(response.body.text()).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('skips 1xx informational answers and resolves with the final status and headers', async () => {
    const response = await post('/hints-then-answer');
    expect(response.status).toBe(201);
    expect(response.headers['retry-after']).toBe('3');
    expect(JSON.parse(await response.body.text())).toEqual({ ok: true });
  });
});
