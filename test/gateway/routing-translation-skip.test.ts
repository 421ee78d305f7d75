import { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ANTHROPIC_UPSTREAM_KEY,
  OPENAI_UPSTREAM_KEY,
  SECONDARY_UPSTREAM_KEY,
  startGatewayHarness,
  type GatewayHarness,
} from './support/harness.js';
import { healthOf } from './support/deployment-health.js';
import { metricValue } from '../support/metric-value.js';

/**
 * A deployment whose translation refuses a request (`n: 2` for a Claude model) failed the whole
 * request with a 400, so the same valid request got 200 or 400 as the weighted choice fell, and a
 * fallback refusing locally hid the primary's real failure. Now it is skipped as a deployment lacking
 * a capability is: not an attempt, no failure of it; the 400 only when no deployment can take it.
 */
describe('a deployment whose translation refuses the request', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());
  let round = 0;
  beforeEach(async () => {
    h.openai.reset();
    h.openaiSecondary.reset();
    h.anthropic.reset();
    // Fresh ids per test: no health carried over.
    round += 1;
    const claude = (model: string, weight: number) => ({
      id: `${model}-claude-${round}`,
      model,
      provider: 'anthropic',
      upstream_model: 'claude-opus-4-7',
      base_url: h.anthropic.url,
      api_key: ANTHROPIC_UPSTREAM_KEY,
      weight,
      max_retries: 0,
    });
    const openai = (model: string, weight: number, url: string, apiKey: string) => ({
      id: `${model}-openai-${round}`,
      model,
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: url,
      api_key: apiKey,
      weight,
      max_retries: 0,
    });
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [
        // Claude all but always chosen first.
        claude('ha-model', 1_000_000),
        openai('ha-model', 0.000001, h.openai.url, OPENAI_UPSTREAM_KEY),
        // OpenAI (failing in the test that says so) chosen first, Claude the fallback.
        openai('gpt-4o-mini', 1_000_000, h.openaiSecondary.url, SECONDARY_UPSTREAM_KEY),
        claude('gpt-4o-mini', 0.000001),
        claude('claude-opus-4-7', 1),
      ],
    });
    expect(saved.status).toBe(200);
  });

  const askForTwo = (model: string) =>
    h
      .openaiClient(key)
      .chat.completions.create({ model, n: 2, messages: [{ role: 'user', content: 'two please' }] })
      .withResponse();
  const health = (id: string) => healthOf(h.admin, id);

  it('is skipped for the next deployment, which answers; no attempt nor failure is counted', async () => {
    const { data, response } = await askForTwo('ha-model');
    expect(data.object).toBe('chat.completion');
    expect(response.headers.get('x-gateway-attempts')).toBe('1');
    expect(response.headers.get('x-gateway-deployment')).toBe(`ha-model-openai-${round}`);
    expect(h.anthropic.requests).toHaveLength(0);
    expect(h.openai.lastRequest()?.body.n).toBe(2);
    expect(await health(`ha-model-claude-${round}`)).toMatchObject({ requests: 0, failures: 0, state: 'unused' });
  });

  it('is the 400 naming the parameter when no deployment can take the request, under that deployment', async () => {
    const failure = await askForTwo('claude-opus-4-7').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    const error = failure as APIError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('one choice per request, got 2');
    expect((error.error as { param?: string }).param).toBe('n');
    expect(error.headers?.get('x-gateway-attempts')).toBeNull();
    expect(h.anthropic.requests).toHaveLength(0);
    const [row] = await h.usageRows('limit=1');
    expect(row).toMatchObject({ model: 'claude-opus-4-7', deployment: `claude-opus-4-7-claude-${round}`, status: 400 });
  });

  it("answers the upstream's failure, not the fallback's refusal, when the upstream failed first", async () => {
    h.openaiSecondary.setDefault({ status: 503 });
    try {
      const failure = await askForTwo('gpt-4o-mini').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(APIError);
      const error = failure as APIError;
      expect(error.status).toBe(502);
      expect(error.headers?.get('x-upstream-status')).toBe('503');
      expect(error.headers?.get('x-gateway-attempts')).toBe('1');
      expect(h.openaiSecondary.requests).toHaveLength(1);
      expect(h.anthropic.requests).toHaveLength(0);
      const [row] = await h.usageRows('limit=1');
      expect(row).toMatchObject({ deployment: `gpt-4o-mini-openai-${round}`, status: 502 });
      expect(await health(`gpt-4o-mini-claude-${round}`)).toMatchObject({ requests: 0, failures: 0 });
    } finally {
      h.openaiSecondary.setDefault({});
    }
  });

  it('counts one fallback from a failed deployment past a refusing one to the one that answers', async () => {
    const deployment = (id: string, weight: number, fields: Record<string, string>) => ({
      id: `${id}-${round}`,
      model: 'ha-model',
      weight,
      max_retries: 0,
      ...fields,
    });
    const openai = { provider: 'openai', upstream_model: 'gpt-4o-mini' };
    // Tried in this order: the failing OpenAI, Claude (refusing `n: 2`), the other OpenAI.
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [
        deployment('relay-first', 1_000_000, {
          ...openai,
          base_url: h.openaiSecondary.url,
          api_key: SECONDARY_UPSTREAM_KEY,
        }),
        deployment('relay-refusing', 1, {
          provider: 'anthropic',
          upstream_model: 'claude-opus-4-7',
          base_url: h.anthropic.url,
          api_key: ANTHROPIC_UPSTREAM_KEY,
        }),
        deployment('relay-last', 0.000001, { ...openai, base_url: h.openai.url, api_key: OPENAI_UPSTREAM_KEY }),
      ],
    });
    expect(saved.status).toBe(200);
    h.openaiSecondary.setDefault({ status: 503 });
    try {
      const { data, response } = await askForTwo('ha-model');
      expect(data.object).toBe('chat.completion');
      expect(response.headers.get('x-gateway-deployment')).toBe(`relay-last-${round}`);
      expect(response.headers.get('x-gateway-attempts')).toBe('2');
      expect(h.anthropic.requests).toHaveLength(0);
      const metrics = await (await fetch(`${h.url}/metrics`)).text();
      const failed = `deployment="relay-first-${round}"`;
      expect(metricValue(metrics, 'gateway_upstream_failures_total', failed)).toBe(1);
      expect(metricValue(metrics, 'gateway_upstream_fallbacks_total', failed)).toBe(1);
      expect(metricValue(metrics, 'gateway_upstream_fallbacks_total', `deployment="relay-refusing-${round}"`)).toBe(0);
    } finally {
      h.openaiSecondary.setDefault({});
    }
  });
});
