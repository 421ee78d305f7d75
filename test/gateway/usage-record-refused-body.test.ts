import type { APIError, default as OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficListSchema, type TrafficEvent } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A request the endpoint's schema refused, though its body parsed and named a model, is recorded as
 * asking for that model (usage, traffic, the metrics' label when the model is one the gateway serves)
 * with its body in the traffic view, credentials hidden: "why did my client get a 400?" has an answer.
 */
describe('a request refused by body validation keeps what it asked for', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const key = await h.issueKey({ name: 'refused-bodies', scopes: ['chat'] });
    keyId = key.id;
    secret = key.key;
    client = h.openaiClient(key.key);
  });
  afterAll(async () => h?.close());

  const scrape = async (): Promise<string> => (await fetch(`${h.url}/metrics`)).text();
  const sample = (text: string, series: string): number => {
    const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  const traffic = async (requestId: string): Promise<TrafficEvent> => {
    const page = trafficListSchema.parse((await h.admin('GET', '/internal/traffic?limit=50')).body);
    return page.data.find((event) => event.request_id === requestId)!;
  };

  it('records the model and the body of a request whose parameter is out of range', async () => {
    const before = sample(await scrape(), 'gateway_requests_total{model="gpt-4o-mini",status="400"}');
    const refused = (await client.chat.completions
      .create({
        model: 'fast', // an alias of gpt-4o-mini
        temperature: 5,
        messages: [{ role: 'user', content: 'hello' }],
        metadata: { api_key: 'sk-client-secret-in-metadata' },
      })
      .catch((error: unknown) => error)) as APIError;
    expect(refused.status).toBe(400);
    const requestId = refused.requestID!;

    const [row] = await h.usageRows(`request_id=${requestId}`);
    expect(row).toMatchObject({ status: 400, requested_model: 'fast', model: 'gpt-4o-mini', key_id: keyId });
    const event = await traffic(requestId);
    expect(event).toMatchObject({ requested_model: 'fast', model: 'gpt-4o-mini' });
    expect(event.request_body).toMatchObject({
      model: 'fast',
      temperature: 5,
      metadata: { api_key: '[redacted]' },
    });
    expect(JSON.stringify(event)).not.toContain('sk-client-secret-in-metadata');
    expect(JSON.stringify(event)).not.toContain(secret);
    const after = sample(await scrape(), 'gateway_requests_total{model="gpt-4o-mini",status="400"}');
    expect(after - before).toBe(1);
  });

  it('records a malformed body that names a model it does not serve, under no metrics label of its own', async () => {
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'client-made-up-model', messages: 'notalist' }),
    });
    expect(answer.status).toBe(400);
    const requestId = answer.headers.get('x-request-id')!;

    const [row] = await h.usageRows(`request_id=${requestId}`);
    expect(row).toMatchObject({ requested_model: 'client-made-up-model', model: null });
    const event = await traffic(requestId);
    expect(event).toMatchObject({ requested_model: 'client-made-up-model', model: null });
    expect(event.request_body).toEqual({ model: 'client-made-up-model', messages: 'notalist' });
    const metrics = await scrape();
    expect(metrics).not.toContain('client-made-up-model');
    expect(sample(metrics, 'gateway_requests_total{model="unknown",status="400"}')).toBeGreaterThanOrEqual(1);
  });

  it('still records nothing of a body it never read: a request without a valid key', async () => {
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-not-a-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', temperature: 5, messages: [] }),
    });
    expect(answer.status).toBe(401);
    const requestId = answer.headers.get('x-request-id')!;
    const [row] = await h.usageRows(`request_id=${requestId}`);
    expect(row).toMatchObject({ requested_model: null, model: null });
    expect((await traffic(requestId)).request_body).toBeNull();
  });
});
