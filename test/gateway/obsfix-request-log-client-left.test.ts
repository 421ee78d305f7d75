import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, waitForLogLine, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-log-left-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-log-left-0123456789secret';
/** pino's number for `debug`. */
const DEBUG = 20;

/**
 * At `debug`, every request gets an arrival and a completion line, written at debug as the
 * configuration documents: a request whose client left before its answer too (status 499), which
 * Fastify, logging completion when a response finishes, never logged.
 */
describe('per-request log lines at debug', () => {
  let dir: string;
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess;
  let key: string;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: OPENAI_KEY });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-log-left-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini'] },
        providers: { openai: { base_url: upstream.url, api_key: OPENAI_KEY } },
      }),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'debug',
    });
    key = (await issueKey(server.gatewayUrl, MASTER, { scopes: ['chat'] })).key;
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const chat = (requestId: string, signal?: AbortSignal): Promise<Response> =>
    fetch(`${server.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-request-id': requestId,
        'user-agent': 'log-test/2.0',
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
      signal,
    });

  it('logs arrival and completion at debug, the arrival with the address and user agent', async () => {
    const requestId = randomUUID();
    expect((await chat(requestId)).status).toBe(200);
    const arrival = await waitForLogLine(server, (e) => e.requestId === requestId && e.msg === 'incoming request');
    expect(arrival).toMatchObject({ level: DEBUG, userAgent: 'log-test/2.0' });
    expect(String(arrival.remoteAddress)).toMatch(/127\.0\.0\.1$/);
    const done = await waitForLogLine(server, (e) => e.requestId === requestId && e.msg === 'request completed');
    expect(done).toMatchObject({ level: DEBUG, res: { statusCode: 200 } });
  });

  it('logs the completion of a request whose client left, as 499', async () => {
    const requestId = randomUUID();
    upstream.setNext({ hang: true });
    const leaving = new AbortController();
    const pending = chat(requestId, leaving.signal).catch(() => undefined);
    await upstream.waitForRequests(upstream.requests.length + 1);
    leaving.abort();
    await pending;
    const done = await waitForLogLine(server, (e) => e.requestId === requestId && e.msg === 'request completed');
    expect(done).toMatchObject({ level: DEBUG, res: { statusCode: 499 }, clientClosed: true });
  });
});
