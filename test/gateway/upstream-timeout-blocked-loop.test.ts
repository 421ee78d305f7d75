import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * A deployment's timeout counts the upstream's silence, not the gateway's own stalls. After the event
 * loop was blocked (here by the upstream, which runs in the test's process, as a large answer being
 * parsed blocks it in production), Node runs due timers before the socket reads that were waiting:
 * an answer that arrived in time was called a timeout, retried, and counted against a healthy
 * deployment (40 of 60 requests behind three 50 MB answers).
 */
// Long enough that a loaded machine's own pauses never reach it; the stall below is longer still.
const TIMEOUT_MS = 1000;

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('upstream timeouts after a blocked event loop', () => {
  let upstream: Server;
  let servers: TempServers;
  let key: string;
  let calls = 0;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        calls += 1;
        const body = JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: 'on time' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        });
        // The answer is on the socket at once; then the process stalls for longer than the timeout.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
        blockFor(TIMEOUT_MS * 2);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-4o-mini'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'prompt',
          model: 'gpt-4o-mini',
          provider: 'openai',
          base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
          api_key: 'sk-blocked-loop-0123456789',
          timeout_ms: TIMEOUT_MS,
        },
      ],
    });
    key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key;
  });
  afterAll(async () => {
    await servers.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('takes an answer that arrived in time, and counts no failure against the deployment', async () => {
    for (let round = 0; round < 2; round += 1) {
      const answer = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(
        ((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
      ).toBe('on time');
    }
    expect(calls).toBe(2);
    const health = (await admin('GET', '/internal/deployments/health')).body.data;
    expect(health.find((entry: { id: string }) => entry.id === 'prompt')).toMatchObject({ failures: 0, successes: 2 });
  });
});
