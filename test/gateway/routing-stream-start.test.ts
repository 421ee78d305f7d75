import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * An upstream that answers a stream 200 and then sends a first frame that is not JSON: nothing has
 * reached the client, yet like any 2xx that is no answer it is not asked again of the same deployment
 * (it would send the same), and the 502 says what the upstream sent (200), as it does for a
 * non-streamed answer that is not JSON.
 */
describe('a stream whose first frame is malformed', () => {
  let upstream: Server;
  let servers: TempServers;
  let apiKey: string;
  let received = 0;

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('data: {not json\n\ndata: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    servers = await startTempServers({
      llm: { allowed_models: ['garbled'] },
      gateway: { max_retries: 2, retry_backoff_ms: 5 },
      deployments: [{ id: 'garbled-1', model: 'garbled', provider: 'openai_compatible', base_url: url }],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: 'Bearer gk-master-test-0123456789abcdef', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stream-start', scopes: ['chat'] }),
    });
    apiKey = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await servers?.stop();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('is asked once, then answered 502 with the status the upstream sent', async () => {
    received = 0;
    const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'garbled', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(response.status).toBe(502);
    expect(received).toBe(1);
    expect(response.headers.get('x-upstream-status')).toBe('200');
    // Another try would get the same frame: the SDK is told not to send it again.
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(body.error.type).toBe('upstream_error');
    expect(body.error.message).toContain('malformed stream chunk: {not json');
    expect(body.error.message).not.toContain('stream error 502');
  });

  it('reaches the OpenAI SDK as a server error', async () => {
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey, maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: 'garbled', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-upstream-status')).toBe('200');
  });
});
