import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import { startOpenAIUpstream } from '../../support/upstreams/index.js';

// Limits survive a restart: a new process rebuilds its buckets and budgets from the usage table.

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-limits-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Servers over the shared data directory (which outlives them). */
const start = (): Promise<TempServers> => startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });

async function admin(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

const chat = (url: string, key: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({
    model: 'demo/echo',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'remember me' }],
  });

describe('limits across a restart', () => {
  it('a used-up request bucket and daily budget stay used up in the next process', async () => {
    const first = await start();
    await admin(first.gatewayUrl, 'POST', '/internal/users', { id: 'restart-user', tpd_budget: 100_000 });
    const key = await admin(first.gatewayUrl, 'POST', '/internal/api-keys', {
      scopes: ['chat'],
      user: 'restart-user',
      rpm_limit: 3,
    });
    for (let i = 0; i < 3; i += 1) await chat(first.gatewayUrl, key.key);
    const before = await admin(first.gatewayUrl, 'GET', '/internal/users/restart-user');
    const usedBefore = before.limits.find((l: any) => l.limit_type === 'user_daily').used;
    expect(usedBefore).toBeGreaterThan(0);
    await first.stop();

    const second = await start();
    try {
      const error = (await chat(second.gatewayUrl, key.key).catch((e: unknown) => e)) as InstanceType<
        typeof OpenAI.RateLimitError
      >;
      expect(error.status).toBe(429);
      expect(error.error).toMatchObject({ limit_type: 'requests' });
      expect(Number(error.headers.get('retry-after'))).toBeGreaterThanOrEqual(15);
      const after = await admin(second.gatewayUrl, 'GET', '/internal/users/restart-user');
      expect(after.limits.find((l: any) => l.limit_type === 'user_daily').used).toBe(usedBefore);
    } finally {
      await second.stop();
    }
  });
});

describe("a caller's own provider key (allow_passthrough_keys) across a restart", () => {
  it('is left out of the model limits in the next process, as it was in the first', async () => {
    const upstream = await startOpenAIUpstream();
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-passthrough-restart-'));
    const config = {
      llm: { allowed_models: ['emb'] },
      allow_passthrough_keys: true,
      deployments: [
        { id: 'e', model: 'emb', provider: 'openai', upstream_model: 'text-embedding-3-small', base_url: upstream.url },
      ],
      limits: { models: { emb: { rpm_limit: 2 } } },
    };
    const embed = (url: string, key: string) =>
      new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).embeddings.create({ model: 'emb', input: 'x' });
    const first = await startTempServers(config, { GATEHOUSE_DATA_DIR: dir });
    try {
      // The callers' own provider keys: not the gateway's to limit.
      for (let i = 0; i < 3; i += 1) await embed(first.gatewayUrl, 'sk-callers-own-key-0123456789');
    } finally {
      await first.stop();
    }
    const second = await startTempServers(config, { GATEHOUSE_DATA_DIR: dir });
    try {
      const key = await admin(second.gatewayUrl, 'POST', '/internal/api-keys', { scopes: ['embeddings'] });
      // The model's two requests a minute are still there for a gateway key.
      for (let i = 0; i < 2; i += 1) expect((await embed(second.gatewayUrl, key.key)).data).toHaveLength(1);
    } finally {
      await second.stop();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
