import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/**
 * The SDKs give up after 600 s, the gateway's default `timeout_ms`: a client always left a moment before
 * the gateway would have called a silent deployment's wait a timeout, so a deployment that takes
 * requests and never answers was counted nowhere, never cooled down, and took every next request.
 * A client leaving after 90 % of the timeout now counts as that deployment timing out.
 */
const TIMEOUT_MS = 3000;
const KEY = 'sk-abandoned-0123456789';

describe('a client that leaves a silent deployment', () => {
  let hung: Server;
  let good: OpenAIUpstream;
  let servers: TempServers;
  let key: string;
  let arrived: (() => void) | undefined;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    // Takes the request and never answers.
    hung = createServer((request) => {
      request.resume();
      arrived?.();
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    good = await startOpenAIUpstream({ apiKey: KEY });
    const deployment = (id: string, baseUrl: string, weight: number) => ({
      id,
      model: 'gpt-4o-mini',
      provider: 'openai',
      base_url: baseUrl,
      api_key: KEY,
      weight,
      timeout_ms: TIMEOUT_MS,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-4o-mini'] },
      gateway: { max_retries: 0, cooldown_after_failures: 1 },
      deployments: [
        deployment('hung', `http://127.0.0.1:${(hung.address() as AddressInfo).port}/v1`, 1_000_000),
        deployment('good', good.url, 0.000001),
      ],
    });
    key = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key;
  });
  afterAll(async () => {
    await servers.stop();
    await good.close();
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
  });

  /**
   * Asks, and leaves `leaveAfterMs` after the upstream got the request: the gateway's own wait began
   * before that, so however loaded the machine, it waited at least as long.
   */
  const ask = (leaveAfterMs?: number) => {
    const leave = new AbortController();
    if (leaveAfterMs !== undefined) arrived = () => setTimeout(() => leave.abort(), leaveAfterMs);
    return fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      signal: leave.signal,
    });
  };
  const healthOf = async (id: string) =>
    (await admin('GET', '/internal/deployments/health')).body.data.find((entry: { id: string }) => entry.id === id);
  /** The health once the gateway noticed the client left (its record follows the abort). */
  async function settledHealth(id: string, requests: number) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const entry = await healthOf(id);
      if (entry.requests >= requests) return entry;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return healthOf(id);
  }

  it('counts no failure when the client leaves early: its own impatience says nothing of the deployment', async () => {
    await expect(ask(100)).rejects.toThrow();
    // Counted among its calls, neither a success nor a failure.
    expect(await settledHealth('hung', 1)).toMatchObject({ requests: 1, successes: 0, failures: 0, state: 'unused' });
  });

  it('counts a timeout when the client leaves after nearly the whole timeout, so the next request goes elsewhere', async () => {
    // 93 %: past the 90 % that counts, with room before the gateway's own timeout would end it.
    await expect(ask(TIMEOUT_MS * 0.93)).rejects.toThrow();
    const entry = await settledHealth('hung', 2);
    expect(entry).toMatchObject({ failures: 1, state: 'cooling_down' });
    expect(entry.last_error).toContain('when the client left');
    const next = await ask();
    expect(next.status).toBe(200);
    expect(next.headers.get('x-gateway-deployment')).toBe('good');
  });
});
