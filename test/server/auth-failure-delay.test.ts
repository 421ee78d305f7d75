import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, waitForLogLine, type HeadlessProcess } from '../support/headless-process.js';

const MASTER = 'gk-master-auth-delay-0123456789';
const STORE = 'st-store-auth-delay-0123456789';
const SLOWED = /^refused credentials are repeating/;

/** Sends `count` requests one after another and returns their statuses. */
async function statuses(count: number, send: (index: number) => Promise<Response>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await send(i);
    await response.arrayBuffer();
    seen.push(response.status);
  }
  return seen;
}

/**
 * Credentials guessed at full speed (a typed-in master key or store token, at ~100 tries a second)
 * were never slowed. Past ten refusals a minute per service, each further 401 now waits, up to a
 * second; the log says so; valid credentials are answered as before.
 */
describe('refused credentials, repeated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-auth-delay-'));
  let server: HeadlessProcess;

  beforeAll(async () => {
    server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      PROXY_MASTER_KEY: MASTER,
      STORE_TOKEN: STORE,
      GATEHOUSE_LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are slowed on the gateway past ten a minute, master key and API key alike, and said so in the log', async () => {
    const guess = (key: string, path = '/internal/api-keys') =>
      fetch(`${server.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(await statuses(10, (i) => guess(`wrong-master-key-guess-${i}`))).toEqual(Array(10).fill(401));
    expect(server.output()).not.toMatch(/refused credentials are repeating/);

    const started = performance.now();
    expect(await statuses(2, (i) => guess(`gk-wrong-api-key-guess-${i}`, '/v1/models'))).toEqual([401, 401]);
    // The 11th waits 100 ms, the 12th 200 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);

    const line = await waitForLogLine(server, (entry) => SLOWED.test(String(entry.msg)));
    expect(line).toMatchObject({ level: 40, name: 'gateway', method: 'GET', path: '/v1/models', slowed: 1 });
    expect(server.output()).not.toContain('wrong-master-key-guess');
    expect(server.output()).not.toContain('gk-wrong-api-key-guess');

    // The right key still answers, and the store's count is its own.
    expect((await guess(MASTER)).status).toBe(200);
    const store = await fetch(`${server.storeUrl}/v1/namespaces`, { headers: { authorization: `Bearer ${STORE}` } });
    expect(store.status).toBe(200);
  });

  it('are slowed on the store past ten a minute, and said so in its log', async () => {
    const guess = (i: number) =>
      fetch(`${server.storeUrl}/v1/namespaces`, { headers: { authorization: `Bearer wrong-store-token-${i}` } });
    expect(await statuses(11, guess)).toEqual(Array(11).fill(401));
    const line = await waitForLogLine(server, (entry) => SLOWED.test(String(entry.msg)) && entry.name === 'store');
    expect(line).toMatchObject({ level: 40, path: '/v1/namespaces', slowed: 1, delay_ms: 100 });
  });

  it('lets a client that leaves while its refusal waits go, and answers the next one', async () => {
    // Past the free refusals of this minute (the first test's), so this one waits before its answer.
    const socket = connect(Number(new URL(server.gatewayUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'GET /internal/api-keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong-and-gone\r\nConnection: close\r\n\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const response = await fetch(`${server.gatewayUrl}/internal/api-keys`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    expect(response.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
