import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream } from '../support/upstreams/index.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { closedWithin, collect, openSocket, parseAnswer } from './raw-http.js';

const TIMEOUTS = {
  idle_timeout_ms: 300,
  headers_timeout_ms: 600,
  request_timeout_ms: 900,
  keep_alive_timeout_ms: 400,
};

/** Small timeouts, over real sockets: what is closed, what is answered, and what must never be cut. */
describe('connection timeouts and limits', () => {
  let servers: TempServers;
  let upstream: Awaited<ReturnType<typeof startOpenAIUpstream>>;
  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: 'sk-upstream-0123456789' });
    servers = await startTempServers({
      server: TIMEOUTS,
      llm: { allowed_models: ['slow-model'] },
      deployments: [
        { model: 'slow-model', provider: 'openai', base_url: upstream.url, api_key: 'sk-upstream-0123456789' },
      ],
    });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });
  const urls = () => [servers.gatewayUrl, servers.storeUrl];

  it('closes a connection that never sends a request', async () => {
    for (const url of urls()) {
      const socket = await openSocket(url);
      const received = collect(socket, 5000);
      expect(await closedWithin(socket, 3000)).toBe(true);
      expect((await received).data.length).toBe(0);
    }
  });

  it('answers 408 in the shared shape to a client that sends its body one byte at a time', async () => {
    const CLIENT_ID = '2f1c3a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
    const targets = [
      { url: servers.gatewayUrl, path: '/internal/api-keys', token: servers.masterKey.value },
      { url: servers.storeUrl, path: '/v1/apply', token: TEST_STORE_TOKEN },
    ];
    for (const { url, path, token } of targets) {
      const socket = await openSocket(url);
      const received = collect(socket, 8000);
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
          `x-request-id: ${CLIENT_ID}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
      );
      const drip = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write('{');
      }, 100);
      const { data } = await received;
      clearInterval(drip);
      const answer = parseAnswer(data);
      expect(answer, data.toString('latin1')).toBeDefined();
      expect(answer!.status).toBe(408);
      // The request got its id when its headers arrived (here the client's own): the 408 carries it.
      expect(answer!.headers['x-request-id']).toBe(CLIENT_ID);
      const body = JSON.parse(answer!.body) as { error: { type: string; message: string; code: number } };
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 408 });
      expect(body.error.message).toContain('server.request_timeout_ms');
    }
  });

  it('answers 408 to headers that never end', async () => {
    const socket = await openSocket(servers.storeUrl);
    const received = collect(socket, 8000);
    socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    const drip = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write('x-slow: 1\r\n');
    }, 100);
    const { data } = await received;
    clearInterval(drip);
    const answer = parseAnswer(data);
    expect(answer?.status).toBe(408);
    expect(answer?.body).toContain('server.headers_timeout_ms');
  });

  it('closes a keep-alive connection once it has been idle for the keep-alive timeout', async () => {
    for (const url of urls()) {
      const socket = await openSocket(url);
      const received = collect(socket, 5000);
      socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      expect(await closedWithin(socket, 3000)).toBe(true);
      const answer = parseAnswer((await received).data);
      expect(answer?.status).toBe(200);
      expect(answer?.headers['keep-alive']).toBe('timeout=0');
    }
  });

  it('never cuts a streamed answer that stays silent far longer than every timeout', async () => {
    upstream.setNext({ frameDelayMs: 1200 });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${servers.masterKey.value}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const key = ((await created.json()) as { key: string }).key;
    const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const started = Date.now();
    const text = await response.text();
    expect(Date.now() - started).toBeGreaterThan(2000);
    expect(text).toContain('hi');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  }, 30_000);
});

describe('the connection cap', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ server: { max_connections: 2 } });
  });
  afterAll(async () => {
    await servers.stop();
  });

  it('refuses connections beyond server.max_connections and takes new ones once some closed', async () => {
    for (const url of [servers.gatewayUrl, servers.storeUrl]) {
      const held = [await openSocket(url), await openSocket(url)];
      const extra = await openSocket(url);
      expect(await closedWithin(extra, 2000)).toBe(true);
      for (const socket of held) expect(socket.destroyed).toBe(false);
      held[0]!.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await openSocket(url);
      const received = collect(next);
      next.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
      expect(parseAnswer((await received).data)?.status).toBe(200);
      held[1]!.destroy();
    }
  });
});
