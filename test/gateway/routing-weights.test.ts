import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OPENAI_UPSTREAM_KEY,
  SECONDARY_UPSTREAM_KEY,
  startGatewayHarness,
  type GatewayHarness,
} from './support/harness.js';

/** How requests spread over a model's deployments by weight, counted at the upstreams themselves. */
describe('weighted routing', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.openaiSecondary.reset();
  });

  const weighted = (primary: number, secondary: number) => ({
    deployments: [
      {
        id: 'ha-primary',
        model: 'ha-model',
        provider: 'openai',
        upstream_model: 'gpt-4o-mini',
        base_url: h.openai.url,
        api_key: OPENAI_UPSTREAM_KEY,
        weight: primary,
      },
      {
        id: 'ha-secondary',
        model: 'ha-model',
        provider: 'openai',
        upstream_model: 'gpt-4o-mini',
        base_url: h.openaiSecondary.url,
        api_key: SECONDARY_UPSTREAM_KEY,
        weight: secondary,
      },
    ],
  });

  /** Sends `count` requests; what each deployment answered, by the answer's header and by its upstream's count. */
  const spread = async (count: number): Promise<Record<string, number>> => {
    const seen: Record<string, number> = {};
    for (let i = 0; i < count; i += 1) {
      const response = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      const deployment = response.headers.get('x-gateway-deployment') ?? 'none';
      seen[deployment] = (seen[deployment] ?? 0) + 1;
      await response.text();
    }
    expect(h.openai.requests.length).toBe(seen['ha-primary'] ?? 0);
    expect(h.openaiSecondary.requests.length).toBe(seen['ha-secondary'] ?? 0);
    return seen;
  };

  it('follows the weights: 3 to 1 over 400 requests', async () => {
    expect((await h.admin('PUT', '/internal/deployments', weighted(3, 1))).status).toBe(200);
    const seen = await spread(400);
    // 300 expected; six standard deviations (about 8.7 each) either side.
    expect(seen['ha-primary']).toBeGreaterThan(248);
    expect(seen['ha-primary']).toBeLessThan(352);
  });

  it('splits equal weights evenly however large they are', async () => {
    expect((await h.admin('PUT', '/internal/deployments', weighted(1e308, 1e308))).status).toBe(200);
    const seen = await spread(200);
    // 100 each expected: the weights' sum must not overflow into sending everything to one.
    expect(seen['ha-primary']).toBeGreaterThan(60);
    expect(seen['ha-secondary']).toBeGreaterThan(60);
  });
});
