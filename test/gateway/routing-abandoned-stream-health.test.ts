import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { healthOf, settledHealth } from './support/deployment-health.js';

/**
 * A stream its client left used to count as the deployment's success: it ended a cooldown and cleared
 * the last error, even when the upstream had stopped sending. Clients (an SDK's timeout, a user's stop)
 * give up on a hung stream long before the default `timeout_ms`, so such a deployment never cooled
 * down. Now a stream left while frames flowed, or after a short silence, is neutral, and one left after
 * a silence of 90 % of `timeout_ms` is a timeout of the deployment, as a request left while silent is.
 */
const TIMEOUT_MS = 5000;
const KEY = 'sk-stream-abandon-0123456789';

/** What the fault upstream does after a stream's first chunk. */
type After = 'drop' | 'flow' | 'stall';

const chunk = (content: string): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta: { role: 'assistant', content }, logprobs: null, finish_reason: null }],
  })}\n\n`;

describe('a stream its client leaves', () => {
  let fault: Server;
  let servers: TempServers;
  let client: OpenAI;
  let next: After = 'stall';
  const open = new Set<ServerResponse>();
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    // An OpenAI-wire upstream: a 200 stream with one chunk, then what `next` says.
    fault = createServer((request, response) => {
      request.resume();
      const after = next;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk('first'));
      if (after === 'drop') {
        response.destroy();
        return;
      }
      open.add(response);
      if (after === 'flow') {
        const timer = setInterval(() => response.write(chunk(' more')), 20);
        response.on('close', () => clearInterval(timer));
      }
    });
    await new Promise<void>((resolve) => fault.listen(0, '127.0.0.1', resolve));
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-4o-mini'] },
      gateway: { max_retries: 0, cooldown_after_failures: 1 },
      deployments: [
        {
          id: 'streamer',
          model: 'gpt-4o-mini',
          provider: 'openai',
          base_url: `http://127.0.0.1:${(fault.address() as AddressInfo).port}/v1`,
          api_key: KEY,
          timeout_ms: TIMEOUT_MS,
        },
      ],
    });
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key;
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers.stop();
    for (const response of open) response.destroy();
    fault.closeAllConnections();
    await new Promise((resolve) => fault.close(resolve));
  });

  const health = () => healthOf(admin, 'streamer');
  const settled = (requests: number) => settledHealth(admin, 'streamer', requests);
  /** Streams, reads `chunks` chunks, then leaves after `leaveAfterMs` more. */
  async function streamAndLeave(after: After, chunks: number, leaveAfterMs = 0): Promise<void> {
    next = after;
    const leave = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { signal: leave.signal },
    );
    let read = 0;
    try {
      for await (const part of stream) {
        expect(part.object).toBe('chat.completion.chunk');
        read += 1;
        if (read === chunks) setTimeout(() => leave.abort(), leaveAfterMs);
      }
    } catch {
      // The SDK ends the loop with an abort error, or quietly, by version: either way the client left.
    }
    expect(leave.signal.aborted).toBe(true);
  }

  it('a dropped stream cools the deployment down', async () => {
    next = 'drop';
    // Dropped with its first chunk: a 502, or a stream that breaks, as the packets fall.
    await expect(async () => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      for await (const part of stream) expect(part.object).toBe('chat.completion.chunk');
    }).rejects.toThrow();
    const entry = await settled(1);
    expect(entry).toMatchObject({ state: 'cooling_down', failures: 1, successes: 0, consecutive_failures: 1 });
    expect(entry.last_error).toBeTruthy();
  });

  it('is no success when left while frames flowed: the cooldown and the last error stay', async () => {
    const before = await health();
    await streamAndLeave('flow', 5);
    const entry = await settled(before.requests + 1);
    expect(entry).toMatchObject({
      requests: before.requests + 1,
      state: 'cooling_down',
      successes: 0,
      failures: before.failures,
      consecutive_failures: before.consecutive_failures,
      last_error: before.last_error,
      last_status: before.last_status,
      cooldown_until: before.cooldown_until,
    });
  });

  it('is neutral when left after a short silence', async () => {
    const before = await health();
    await streamAndLeave('stall', 1, 100);
    const entry = await settled(before.requests + 1);
    expect(entry).toMatchObject({
      requests: before.requests + 1,
      state: 'cooling_down',
      successes: 0,
      failures: before.failures,
      last_error: before.last_error,
    });
  });

  it('is a timeout of the deployment when left after a silence of nearly its timeout_ms', async () => {
    const before = await health();
    // 92 %: past the 90 % that counts (the gateway's wait began before the client got the chunk), and
    // before the gateway's own timeout would end the stream.
    await streamAndLeave('stall', 1, TIMEOUT_MS * 0.92);
    const entry = await settled(before.requests + 1);
    expect(entry).toMatchObject({
      requests: before.requests + 1,
      successes: 0,
      failures: before.failures + 1,
      consecutive_failures: before.consecutive_failures + 1,
      state: 'cooling_down',
      last_status: 200,
    });
    expect(entry.last_error).toMatch(/^no stream data for \d+ ms, when the client left \(timeout_ms is 5000\)$/);
  });
});
