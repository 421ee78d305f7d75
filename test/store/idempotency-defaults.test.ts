import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// A retry layer that spells out the scope's defaults (`"branch": "main"`) sends the same request as the
// first try that left them out: it gets the kept answer, not 422. A retry sent while the first is
// still running is told when to come back.

describe('Idempotency-Key retries', () => {
  const socket = socketStore();
  const send = (method: string, path: string, body: unknown, key: string) =>
    fetch(`${socket.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  /** Sends `first`, then `retry` with the same key and method; the retry must get the kept answer. */
  const expectReplay = async (method: string, path: string, first: unknown, retry: unknown, key: string) => {
    const firstAnswer = await send(method, path, first, key);
    expect(firstAnswer.status).toBe(200);
    const retried = await send(method, path, retry, key);
    expect({ status: retried.status, replayed: retried.headers.get('idempotent-replayed') }).toEqual({
      status: 200,
      replayed: 'true',
    });
    expect(await retried.json()).toEqual(await firstAnswer.json());
  };
  const documents = [{ key: 'a', content: '1' }];

  it('replays an apply whose retry spells out the default namespace and branch', async () => {
    const spelt = { scope: { namespace: 'default', branch: 'main' }, documents, expected_revision: 0 };
    await expectReplay('POST', '/v1/apply', { documents, expected_revision: 0 }, spelt, 'spelt-1');
  });

  it('replays an apply whose retry names branch main of its namespace, and refuses another branch', async () => {
    const scope = { namespace: 'agents/idem' };
    await expectReplay(
      'POST',
      '/v1/apply',
      { scope, documents },
      { scope: { ...scope, branch: 'main' }, documents },
      'spelt-2',
    );
    const other = await send('POST', '/v1/apply', { scope: { ...scope, branch: 'dev' }, documents }, 'spelt-2');
    expect(other.status).toBe(422);
  });

  it('replays a branch deletion whose retry names the default namespace', async () => {
    await send('POST', '/v1/apply', { scope: { branch: 'tmp' }, documents }, 'mk');
    await expectReplay('DELETE', '/v1/branches', { name: 'tmp' }, { namespace: 'default', name: 'tmp' }, 'del-1');
  });

  it('answers a retry of a request still in progress with reason in_progress and Retry-After', async () => {
    const text = JSON.stringify({ scope: { namespace: 'idem-busy' }, documents: [{ key: 'a', content: 'x' }] });
    const slow = connect(Number(new URL(socket.base).port), '127.0.0.1');
    let received = '';
    const continued = new Promise<void>((resolve) =>
      slow.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('100 Continue')) resolve();
      }),
    );
    const answer = new Promise<string>((resolve) => slow.on('end', () => resolve(received)));
    // The headers only, asking to continue: once told to, the server holds the key and waits for the body.
    slow.write(
      `POST /v1/apply HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `content-type: application/json\r\nidempotency-key: busy\r\nconnection: close\r\nexpect: 100-continue\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\n\r\n`,
    );
    await continued;

    const concurrent = await send('POST', '/v1/apply', JSON.parse(text), 'busy');
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get('retry-after')).toBe('1');
    const { error } = (await concurrent.json()) as { error: Record<string, unknown> };
    expect(error).toEqual(expect.objectContaining({ code: 409, reason: 'in_progress' }));

    slow.end(text);
    expect(await answer).toMatch(/HTTP\/1\.1 200/);
  });
});
