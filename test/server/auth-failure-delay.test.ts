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
 * Credentials guessed at full speed (a typed-in master key or store token, at ~100 tries a second, or
 * hundreds at once on parallel connections) were barely slowed. Past ten refusals a minute per
 * service, further 401s are now answered one a second through one queue, parallel or not; past the
 * ones that may wait, at once with 429; the log says so; valid credentials are answered as before.
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

  it('are answered at most one a second on the gateway past ten a minute, in parallel too, and said so in the log', async () => {
    const guess = (key: string, path = '/internal/api-keys') =>
      fetch(`${server.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(await statuses(10, (i) => guess(`wrong-master-key-guess-${i}`))).toEqual(Array(10).fill(401));
    expect(server.output()).not.toMatch(/refused credentials are repeating/);

    // Four guesses at once, master key and API key alike, and a valid request beside them.
    const started = performance.now();
    let refusalsAnswered = 0;
    const refusals = Array.from({ length: 4 }, async (_, i) => {
      const response = await guess(`gk-wrong-api-key-guess-${i}`, i % 2 === 0 ? '/v1/models' : '/internal/api-keys');
      await response.arrayBuffer();
      refusalsAnswered += 1;
      return response.status;
    });
    const valid = await guess(MASTER);
    expect(valid.status).toBe(200);
    // Answered while refusals still wait their turn: valid credentials never queue behind them.
    expect(refusalsAnswered).toBeLessThan(4);
    expect(await Promise.all(refusals)).toEqual([401, 401, 401, 401]);
    // One a second, the first at once: the last answered three turns later, not with the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_900);

    const line = await waitForLogLine(server, (entry) => SLOWED.test(String(entry.msg)));
    expect(line).toMatchObject({ level: 40, name: 'gateway', method: 'GET', slowed: 1, turned_away: 0 });
    expect(server.output()).not.toContain('wrong-master-key-guess');
    expect(server.output()).not.toContain('gk-wrong-api-key-guess');

    // The store's count is its own.
    const store = await fetch(`${server.storeUrl}/v1/namespaces`, { headers: { authorization: `Bearer ${STORE}` } });
    expect(store.status).toBe(200);
  });

  it('are answered at most one a second on the store past ten a minute, and said so in its log', async () => {
    const guess = (i: number) =>
      fetch(`${server.storeUrl}/v1/namespaces`, { headers: { authorization: `Bearer wrong-store-token-${i}` } });
    expect(await statuses(10, guess)).toEqual(Array(10).fill(401));
    const started = performance.now();
    const answers = await Promise.all([10, 11, 12].map(guess));
    expect(answers.map((response) => response.status)).toEqual([401, 401, 401]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    const line = await waitForLogLine(server, (entry) => SLOWED.test(String(entry.msg)) && entry.name === 'store');
    expect(line).toMatchObject({ level: 40, path: '/v1/namespaces', slowed: 1 });
  });

  it('past the refusals that may wait, answers at once with 429 and Retry-After; a client that leaves frees its place', async () => {
    const leave = new AbortController();
    const answered: { status: number; retryAfter: string | null; body: unknown; anthropic: boolean }[] = [];
    // Past the free refusals of this minute (the first test's): 70 at once, where at most 60 may wait.
    const flood = Array.from({ length: 70 }, async (_, i) => {
      const anthropic = i % 2 === 1;
      const headers: Record<string, string> = { authorization: `Bearer gk-flood-guess-${i}` };
      if (anthropic) headers['anthropic-version'] = '2023-06-01';
      const response = await fetch(`${server.gatewayUrl}/v1/models`, { headers, signal: leave.signal });
      answered.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await response.json(),
        anthropic,
      });
    });
    const settled = Promise.allSettled(flood);
    // Those past the cap are answered without waiting for a turn; the others wait a second each.
    const turnedAway = () => answered.filter((answer) => answer.status === 429).length;
    while (turnedAway() < 5 && answered.length < 70) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(turnedAway()).toBeGreaterThanOrEqual(5);
    leave.abort();
    const outcomes = await settled;
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').length).toBeGreaterThanOrEqual(50);
    for (const answer of answered.filter((answer) => answer.status === 429)) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      const error = { type: 'rate_limit_exceeded', code: 429 };
      expect(answer.body).toMatchObject(answer.anthropic ? { type: 'error', error } : { error });
    }
    expect(answered.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);

    // The clients that left gave up their places: new refusals wait their turn again rather than a 429.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await Promise.all(
      [0, 1, 2].map((i) =>
        fetch(`${server.gatewayUrl}/v1/models`, { headers: { authorization: `Bearer gk-after-flood-${i}` } }),
      ),
    );
    expect(after.map((response) => response.status)).toEqual([401, 401, 401]);
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
