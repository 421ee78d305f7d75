import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A call that starts once the shutdown closed the upstream pools is the shutdown's 503, not a provider's failure. */
describe('a request after the upstream pools closed', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h.close());

  it('answers 503 in the shared error shape, without trying the upstream or marking the deployment', async () => {
    const client = new OpenAI({
      baseURL: `${h.url}/v1`,
      apiKey: (await h.issueKey({ scopes: ['chat'] })).key,
      maxRetries: 0,
    });
    await h.servers.gateway.gateway.pools.close();
    const error = (await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(503);
    expect((error.error as { type?: string }).type).toBe('service_unavailable');
    expect(error.headers?.get('x-gateway-attempts') ?? null).toBeNull();
    expect(h.openai.requests).toHaveLength(0);
  });
});
