import type { APIError, default as OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageResponseSchema, type UsageResponse } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Usage per deployment and per provider: which upstream served how much, and how often it failed,
 * as LiteLLM's and Portkey's per-deployment views show it. A request counts under the deployment
 * that answered it; one refused before routing has none.
 */
describe('usage grouped by deployment and by provider', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const key = await h.issueKey({ name: 'by-deployment', scopes: ['chat'] });
    keyId = key.id;
    client = h.openaiClient(key.key);
  });
  afterAll(() => h?.close());

  const send = (model: string) =>
    client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hello' }] })
      .then(() => 200)
      .catch((error: unknown) => (error as APIError).status);

  const totals = async (groupBy: string): Promise<Map<string | null, { requests: number; errors: number }>> => {
    const answer = await h.admin('GET', `/internal/usage?group_by=${groupBy}&bucket=day&key_id=${keyId}`);
    expect(answer.status).toBe(200);
    const usage: UsageResponse = usageResponseSchema.parse(answer.body);
    expect(usage.group_by).toBe(groupBy);
    const byGroup = new Map<string | null, { requests: number; errors: number }>();
    for (const point of usage.data) {
      const entry = byGroup.get(point.group) ?? { requests: 0, errors: 0 };
      byGroup.set(point.group, { requests: entry.requests + point.requests, errors: entry.errors + point.errors });
    }
    return byGroup;
  };

  it('counts each request under the deployment and provider that answered it, errors included', async () => {
    expect(await send('ha-model')).toBe(200);
    expect(await send('ha-model')).toBe(200);
    h.openai.setNext({ status: 400, error: { message: 'bad request upstream' } });
    expect(await send('ha-model')).toBe(502); // the upstream's refusal, relayed as the gateway's 502
    expect(await send('demo/echo')).toBe(200);
    expect(await send('gpt-9')).toBe(400); // not an allowed model: refused before routing

    const byDeployment = await totals('deployment');
    expect(byDeployment.get('ha-primary')).toEqual({ requests: 3, errors: 1 });
    expect(byDeployment.get(null)).toEqual({ requests: 1, errors: 1 });
    const demo = [...byDeployment.keys()].filter((group) => group !== 'ha-primary' && group !== null);
    expect(demo).toHaveLength(1);
    expect(byDeployment.get(demo[0]!)).toEqual({ requests: 1, errors: 0 });

    const byProvider = await totals('provider');
    expect(Object.fromEntries(byProvider)).toEqual({
      openai: { requests: 3, errors: 1 },
      demo: { requests: 1, errors: 0 },
      null: { requests: 1, errors: 1 },
    });
  });

  it('refuses a grouping it does not know, naming the choices', async () => {
    const answer = await h.admin('GET', '/internal/usage?group_by=region');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/group_by.*deployment.*provider/);
  });
});

describe('usage per deployment leaves out cache hits', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
    const key = await h.issueKey({ name: 'cached', scopes: ['chat'] });
    keyId = key.id;
    client = h.openaiClient(key.key);
  });
  afterAll(() => h?.close());

  it('counts hits as a group of their own, not under a deployment or provider: no upstream answered them', async () => {
    const ask = () =>
      client.chat.completions
        .create({ model: 'ha-model', temperature: 0, messages: [{ role: 'user', content: 'same' }] })
        .withResponse();
    expect((await ask()).response.headers.get('x-cache-hit')).toBe('false');
    const hit = await ask();
    expect(hit.response.headers.get('x-cache-hit')).toBe('true');
    expect(h.openai.requests).toHaveLength(1);
    for (const groupBy of ['deployment', 'provider']) {
      const answer = await h.admin('GET', `/internal/usage?group_by=${groupBy}&bucket=day&key_id=${keyId}`);
      const groups = Object.fromEntries(
        usageResponseSchema.parse(answer.body).data.map((point) => [String(point.group), point.requests]),
      );
      expect(groups).toEqual(
        groupBy === 'deployment' ? { 'ha-primary': 1, '(cache)': 1 } : { openai: 1, '(cache)': 1 },
      );
      const hits = usageResponseSchema.parse(answer.body).data.find((point) => point.group === '(cache)');
      expect(hits?.label).toBe('Cache hits');
    }
  });
});
