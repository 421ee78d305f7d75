import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../src/server/store/engine/store-engine.js';
import { ADMIN_TOKEN } from './app-helpers.js';
import { docs, openTempEngine } from './helpers.js';
import { socketStore } from './support/socket-store.js';

const OTHER = 'st-idem-other-0123456789abcdef';

/**
 * A client whose answer was lost (a timeout, a reset connection) retries with the same
 * `Idempotency-Key`: it gets the first answer back rather than a second write or a 409 against its
 * own revision.
 */
describe('Idempotency-Key on the store writes', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'other', token: OTHER, verbs: ['read', 'write'], namespaces: ['*'] },
    ],
  });
  const post = (path: string, body: unknown, key?: string, token = ADMIN_TOKEN, method = 'POST') =>
    fetch(`${socket.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
  const head = async (namespace: string) =>
    ((await (await socket.send('GET', `/v1/state?namespace=${namespace}`)).body) as { revision: number }).revision;

  it('replays the first answer to a retry, writing once, even with expected_revision', async () => {
    const body = {
      scope: { namespace: 'idem' },
      documents: [{ key: 'a', content: 'one' }],
      expected_revision: 0,
    };
    const first = await post('/v1/apply', body, '"retry-1"');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const answer = await first.json();

    const retry = await post('/v1/apply', body, '"retry-1"');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(answer);
    expect(await head('idem')).toBe(1);
    const log = (await socket.send('GET', '/v1/log?namespace=idem')).body as { entries: unknown[] };
    expect(log.entries).toHaveLength(1);
  });

  it('replays a rollback rather than rolling back twice', async () => {
    const apply = (content: string) =>
      post('/v1/apply', { scope: { namespace: 'idem-rb' }, documents: [{ key: 'a', content }] });
    await apply('one');
    await apply('two');
    const body = { scope: { namespace: 'idem-rb' }, revision_id: 1 };
    const first = await (await post('/v1/rollback', body, 'rb-1')).json();
    await apply('three');
    const retry = await post('/v1/rollback', body, 'rb-1');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(first);
    expect(((await socket.send('GET', '/v1/state?namespace=idem-rb')).body as { objects: object }).objects).toEqual({
      a: 'three',
    });
  });

  it('refuses the same key with another body with 422, naming the key', async () => {
    const scope = { namespace: 'idem-422' };
    expect((await post('/v1/apply', { scope, documents: [{ key: 'a', content: 'x' }] }, 'k-422')).status).toBe(200);
    const other = await post('/v1/apply', { scope, documents: [{ key: 'a', content: 'y' }] }, 'k-422');
    expect(other.status).toBe(422);
    const { error } = (await other.json()) as { error: { message: string; code: number } };
    expect(error.code).toBe(422);
    expect(error.message).toContain('Idempotency-Key "k-422" was already used for a different request');
    expect(await head('idem-422')).toBe(1);
  });

  it('keeps keys per token and per endpoint', async () => {
    const body = { scope: { namespace: 'idem-tok' }, documents: [{ key: 'a', content: 'x' }] };
    expect((await post('/v1/apply', body, 'shared')).headers.get('idempotent-replayed')).toBeNull();
    const otherToken = await post('/v1/apply', { ...body, documents: [{ key: 'b', content: 'y' }] }, 'shared', OTHER);
    expect(otherToken.status).toBe(200);
    expect(otherToken.headers.get('idempotent-replayed')).toBeNull();
    expect(await head('idem-tok')).toBe(2);
    const checkpoint = await post('/v1/checkpoints', { scope: { namespace: 'idem-tok' }, name: 'v1' }, 'shared');
    expect(checkpoint.status).toBe(200);
    expect(checkpoint.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays a deleted checkpoint and branch instead of answering 404', async () => {
    const scope = { namespace: 'idem-del' };
    await post('/v1/apply', { scope, documents: [{ key: 'a', content: 'x' }] });
    await post('/v1/checkpoints', { scope, name: 'v1' });
    await post('/v1/branches', { scope, name: 'dev' });
    for (const [path, body] of [
      ['/v1/checkpoints', { namespace: 'idem-del', name: 'v1' }],
      ['/v1/branches', { namespace: 'idem-del', name: 'dev' }],
    ] as const) {
      expect((await post(path, body, `del-${path}`, ADMIN_TOKEN, 'DELETE')).status).toBe(200);
      const retry = await post(path, body, `del-${path}`, ADMIN_TOKEN, 'DELETE');
      expect({ path, status: retry.status }).toEqual({ path, status: 200 });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
  });

  it('refuses a retry while the first request with the key is still in progress with 409', async () => {
    const text = JSON.stringify({ scope: { namespace: 'idem-busy' }, documents: [{ key: 'a', content: 'x' }] });
    const { port } = new URL(socket.base);
    const slow = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let received = '';
      slow.on('data', (chunk) => (received += chunk.toString()));
      slow.on('end', () => resolve(received));
    });
    // The headers, and half the body: the server holds the key while it waits for the rest.
    slow.write(
      `POST /v1/apply HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `content-type: application/json\r\nidempotency-key: busy\r\nconnection: close\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const concurrent = await post('/v1/apply', JSON.parse(text), 'busy');
    expect(concurrent.status).toBe(409);
    const { error } = (await concurrent.json()) as { error: { message: string } };
    expect(error.message).toContain('Idempotency-Key "busy" is still in progress');

    slow.end(text.slice(10));
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    const retry = await post('/v1/apply', JSON.parse(text), 'busy');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await head('idem-busy')).toBe(1);
  });

  it('keeps no answer for a failed write: the key is free for the corrected request', async () => {
    const scope = { namespace: 'idem-fail' };
    const missing = await post('/v1/rollback', { scope, revision_id: 7 }, 'fix-me');
    expect(missing.status).toBe(404);
    await post('/v1/apply', { scope, documents: [{ key: 'a', content: 'x' }] });
    const corrected = await post('/v1/rollback', { scope, revision_id: 1 }, 'fix-me');
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key that cannot be one with 400', async () => {
    const answer = await post('/v1/apply', { scope: { namespace: 'idem' }, documents: [] }, 'x'.repeat(256));
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toContain('header Idempotency-Key must be 1 to 255 printable ASCII characters');
  });
});

describe('kept answers in the database', () => {
  const slot = { token: 'admin', endpoint: 'POST /v1/apply', key: 'k' };

  it('forgets an answer after 24 hours, so the key writes again', () => {
    let now = Date.UTC(2026, 0, 1);
    const temp = openTempEngine({ now: () => now });
    try {
      const write = (content: string) => () => temp.engine.applyDocuments({}, docs({ a: content }));
      expect(temp.engine.once(slot, 'f', write('one')).kind).toBe('ran');
      now += IDEMPOTENCY_KEY_TTL_MS - 1;
      expect(temp.engine.once(slot, 'f', write('two')).kind).toBe('replayed');
      now += 2;
      expect(temp.engine.once(slot, 'f', write('two')).kind).toBe('ran');
      expect(temp.engine.state({}).objects).toEqual({ a: 'two' });
      const rows = temp.database.sqlite.prepare('SELECT count(*) AS n FROM store_idempotency_keys').get();
      expect(rows).toEqual({ n: 1 });
    } finally {
      temp.close();
    }
  });

  it('keeps neither the write nor the key when the request fails after writing', () => {
    const temp = openTempEngine();
    try {
      expect(() =>
        temp.engine.once(slot, 'f', () => {
          temp.engine.applyDocuments({}, docs({ a: 'one' }));
          throw new Error('the process died here');
        }),
      ).toThrow('the process died here');
      expect(temp.engine.state({}).revision).toBe(0);
      expect(temp.engine.once(slot, 'g', () => 'answer')).toEqual({ kind: 'ran', answer: 'answer' });
    } finally {
      temp.close();
    }
  });
});
