import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost } from '../support/raw-post.js';
import { startTempServers } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

describe('the pipeline finishes every request exactly once', () => {
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat', 'embeddings'] })).key;
  });
  afterAll(async () => h.close());

  it('one usage row and one traffic event per request, whatever the outcome', async () => {
    const ids: string[] = [];
    const call = async (path: string, body: object, key = secret): Promise<void> => {
      const response = await fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.text();
      ids.push(response.headers.get('x-request-id')!);
    };
    const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] };
    await call('/v1/chat/completions', chat);
    await call('/v1/chat/completions', { ...chat, stream: true });
    await call('/v1/chat/completions', { ...chat, temperature: 9 });
    await call('/v1/chat/completions', chat, 'gk-not-a-key');
    await call('/v1/embeddings', { model: 'demo/embed', input: 'x' });
    h.openai.setNext({ status: 500 });
    await call('/v1/chat/completions', chat);
    h.openai.setNext({ streamErrorAfterFrames: 2 });
    await call('/v1/chat/completions', { ...chat, stream: true });

    // A client that leaves mid-stream.
    h.openai.setNext({ frameDelayMs: 200 });
    const leaving = rawPost(`${h.url}/v1/chat/completions`, secret, { ...chat, stream: true });
    const response = await leaving.response;
    ids.push(response.headers['x-request-id'] as string);
    await new Promise((resolve) => response.once('data', resolve));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));

    const rows = await h.usageRows('limit=100');
    const traffic = (await h.admin('GET', '/internal/traffic?limit=100')).body.data as Array<{ request_id: string }>;
    const statuses: Record<string, number> = {};
    for (const id of ids) {
      const mine = rows.filter((row: { request_id: string }) => row.request_id === id);
      expect(mine, `usage rows of ${id}`).toHaveLength(1);
      expect(
        traffic.filter((event) => event.request_id === id),
        `traffic events of ${id}`,
      ).toHaveLength(1);
      statuses[mine[0].status] = (statuses[mine[0].status] ?? 0) + 1;
    }
    expect(statuses).toEqual({ 200: 4, 400: 1, 401: 1, 502: 1, 499: 1 });
  });
});

describe('shutdown', () => {
  it('closes the upstream connections the gateway opened', async () => {
    const sockets = new Set<Socket>();
    const upstream = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    upstream.keepAliveTimeout = 60_000;
    upstream.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const servers = await startTempServers({
      llm: { allowed_models: ['kept-model'] },
      deployments: [{ model: 'kept-model', provider: 'openai', base_url: base, api_key: 'sk-kept-0123456789' }],
    });
    try {
      const created = await servers.gateway.inject({
        method: 'POST',
        url: '/internal/api-keys',
        headers: { authorization: `Bearer ${servers.masterKey.value}` },
        payload: {},
      });
      const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.json().key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'kept-model', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(response.status).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      await servers.stop();
    }
    for (let waited = 0; sockets.size > 0 && waited < 2000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sockets.size).toBe(0);
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });
});
