import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-probe-0123456789';
// Long beside the time ten concurrent requests take to arrive on a loaded machine: a request arriving
// after the probe failed and its new cooldown ended would rightly probe again.
const COOLDOWN_MS = 800;

/**
 * When a deployment's cooldown ends, one call probes it; until that call answers, the others go to the
 * model's other deployments first. Without it, every request arriving at the end of a cooldown tried
 * the deployment at once, and all of them waited on an upstream that was still down.
 */
describe('the end of a cooldown', () => {
  let flaky: OpenAIUpstream;
  let steady: OpenAIUpstream;
  let servers: TempServers;
  let key: string;
  beforeAll(async () => {
    [flaky, steady] = await Promise.all([startOpenAIUpstream({ apiKey: KEY }), startOpenAIUpstream({ apiKey: KEY })]);
    servers = await startTempServers({
      llm: { allowed_models: ['pooled'] },
      gateway: { max_retries: 0, cooldown_after_failures: 1, cooldown_ms: COOLDOWN_MS },
      deployments: [
        // Chosen first whenever it is not cooling down.
        {
          id: 'flaky',
          model: 'pooled',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: flaky.url,
          api_key: KEY,
          weight: 1_000_000,
        },
        {
          id: 'steady',
          model: 'pooled',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: steady.url,
          api_key: KEY,
          weight: 0.000001,
        },
      ],
    });
    const created = await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['chat'] });
    key = created.body.key;
  });
  afterAll(async () => {
    await servers.stop();
    await Promise.all([flaky.close(), steady.close()]);
  });

  const chat = async (): Promise<string | null> => {
    const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'pooled', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('x-gateway-deployment');
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('sends one probe while the others go elsewhere, and brings the deployment back when it answers', async () => {
    flaky.setDefault({ status: 500, delayMs: 1000 });
    expect(await chat()).toBe('steady');
    expect(flaky.requests).toHaveLength(1);
    // A save of the model settings rebuilds every deployment: the cooldown and its probe carry on.
    const saved = await fetch(`${servers.gatewayUrl}/internal/models`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model_aliases: { pool: 'pooled' } }),
    });
    expect(saved.status).toBe(200);
    await pause(COOLDOWN_MS + 50);
    // Still down: ten requests at once after the cooldown, and only one of them waits on it.
    const deployments = await Promise.all(Array.from({ length: 10 }, chat));
    expect(deployments.every((deployment) => deployment === 'steady')).toBe(true);
    expect(flaky.requests).toHaveLength(2);
    // Back up: the next probe answers, and traffic returns to it.
    flaky.setDefault({});
    await pause(COOLDOWN_MS + 50);
    expect(await chat()).toBe('flaky');
    expect(await Promise.all(Array.from({ length: 3 }, chat))).toEqual(['flaky', 'flaky', 'flaky']);
  });
});
