import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { importLiteLlmConfig } from '../../src/server/config/litellm-import.js';
import { TEST_MASTER_KEY, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/**
 * How many failures in a row cool a deployment down, and for how long, are settings
 * (`gateway.cooldown_after_failures`, `gateway.cooldown_ms`), which a LiteLLM config's
 * `router_settings.allowed_fails` and `cooldown_time` become. They were fixed at three failures and
 * 30 s, and the import reported both LiteLLM settings as having no equivalent.
 */
describe('cooldown settings, from a LiteLLM config', () => {
  let primary: OpenAIUpstream;
  let secondary: OpenAIUpstream;
  let servers: TempServers;
  const liteLlm = (a: string, b: string) => `model_list:
  - model_name: pooled
    litellm_params: { model: openai/gpt-4o-mini, api_base: ${a}, api_key: sk-primary-0123456789, weight: 1000000 }
    model_info: { id: primary }
  - model_name: pooled
    litellm_params: { model: openai/gpt-4o-mini, api_base: ${b}, api_key: sk-secondary-0123456789, weight: 0.000001 }
    model_info: { id: secondary }
router_settings:
  allowed_fails: 0
  cooldown_time: 45
  num_retries: 0
`;

  beforeAll(async () => {
    [primary, secondary] = await Promise.all([
      startOpenAIUpstream({ apiKey: 'sk-primary-0123456789' }),
      startOpenAIUpstream({ apiKey: 'sk-secondary-0123456789' }),
    ]);
    const { config, unmapped } = importLiteLlmConfig(parseYaml(liteLlm(primary.url, secondary.url)));
    expect(unmapped).toEqual([]);
    expect(config.gateway).toEqual({ max_retries: 0, cooldown_after_failures: 1, cooldown_ms: 45_000 });
    servers = await startTempServers(config as Record<string, unknown>);
  });
  afterAll(async () => {
    await servers?.stop();
    await Promise.all([primary?.close(), secondary?.close()]);
  });

  const admin = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
    });
    return (await response.json()) as any;
  };

  it('cools a deployment down after the failures it allows, for the time it sets', async () => {
    const { key } = await admin('/internal/api-keys', { method: 'POST', body: JSON.stringify({ name: 'cool' }) });
    const chat = async () => {
      const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'pooled', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await response.text();
      return response.headers.get('x-gateway-deployment');
    };
    primary.setNext({ status: 500 });
    const failedAt = Date.now();
    expect(await chat()).toBe('secondary');
    const health = (await admin('/internal/deployments/health')).data.find((d: { id: string }) => d.id === 'primary');
    expect(health).toMatchObject({ state: 'cooling_down', consecutive_failures: 1 });
    const until = new Date(health.cooldown_until).getTime() - failedAt;
    expect(until).toBeGreaterThan(44_000);
    expect(until).toBeLessThan(46_000);
    // Cooling down, the primary is tried last: the next request goes to the secondary first.
    expect(await chat()).toBe('secondary');
    expect(primary.requests).toHaveLength(1);
  });
});
