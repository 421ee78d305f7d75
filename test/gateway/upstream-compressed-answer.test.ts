import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * Without Accept-Encoding an upstream may compress its answer, which the gateway read as text: a
 * broken answer, retried six times and quoted as binary. It asks for identity, and a server that
 * compresses anyway is refused by name, once.
 */
describe('compression of upstream answers', () => {
  let compressing: Server;
  let servers: TempServers;
  let apiKey: string;
  const received: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    compressing = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      request.on('end', () => {
        const body = { id: 'chatcmpl-1', object: 'chat.completion', choices: [] };
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify(body)));
      });
    });
    await new Promise<void>((resolve) => compressing.listen(0, '127.0.0.1', resolve));
    servers = await startTempServers({
      llm: { allowed_models: ['gzip-model'] },
      gateway: { max_retries: 2, retry_backoff_ms: 20 },
      deployments: [
        {
          id: 'gzip',
          model: 'gzip-model',
          provider: 'openai',
          base_url: `http://127.0.0.1:${(compressing.address() as AddressInfo).port}/v1`,
          api_key: 'sk-gzip-0123456789',
        },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat'] }),
    });
    apiKey = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await servers?.stop();
    await new Promise<void>((resolve) => compressing.close(() => resolve()));
  });

  it('asks for identity, and refuses a compressed answer by name without retrying it', async () => {
    for (const stream of [false, true]) {
      received.length = 0;
      const answer = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gzip-model', stream, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect({ stream, status: answer.status }).toEqual({ stream, status: 502 });
      const { error } = (await answer.json()) as { error: { message: string } };
      expect(error.message).toContain("Content-Encoding 'gzip'");
      expect(received).toHaveLength(1);
      expect(received[0]!['accept-encoding']).toBe('identity');
    }
  });
});
