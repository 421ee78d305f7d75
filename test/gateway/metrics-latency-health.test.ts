import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from '../support/metric-value.js';
import { haDeployments, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The `le` bounds of a histogram's series carrying `labels`, in exposition order. */
function bucketBounds(text: string, histogram: string, labels: string): string[] {
  const bounds: string[] = [];
  for (const match of text.matchAll(new RegExp(`^${histogram}_bucket\\{le="([^"]+)",([^}]*)\\} `, 'gm')))
    if (match[2] === labels) bounds.push(match[1]!);
  return bounds;
}

/**
 * What an operator charts from `/metrics`: latencies up to the default upstream timeout (600 s),
 * refused credentials apart from the requests of unknown models, and each deployment's cooldown.
 */
describe('metrics at LLM latencies, refused credentials and deployment health', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    // The first failure in a row cools a deployment down, so one request shows a cooldown.
    h = await startGatewayHarness({ gateway: { max_retries: 0, cooldown_after_failures: 1 } });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h?.close());

  const scrape = async (): Promise<string> => (await fetch(`${h.url}/metrics`)).text();

  it('has latency buckets up to 600 s in each duration histogram', async () => {
    const client = h.openaiClient(key);
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    const text = await scrape();
    const minutes = ['60', '120', '180', '300', '600', '+Inf'];
    const request = bucketBounds(text, 'gateway_request_duration_seconds', 'model="gpt-4o-mini"');
    expect(request.slice(-6)).toEqual(minutes);
    expect(request[0]).toBe('0.001');
    const upstream = bucketBounds(
      text,
      'gateway_upstream_duration_seconds',
      'model="gpt-4o-mini",deployment="gpt-4o-mini"',
    );
    expect(upstream.slice(-6)).toEqual(minutes);
    const firstToken = bucketBounds(text, 'gateway_time_to_first_token_seconds', 'model="gpt-4o-mini"');
    expect(firstToken.slice(-6)).toEqual(minutes);
    // A sane number of series per model: no finer than 1 ms, and few buckets beyond the minute.
    for (const bounds of [request, upstream, firstToken]) expect(bounds.length).toBeLessThanOrEqual(20);
  });

  it('counts refused credentials under model="unauthenticated", apart from unknown models', async () => {
    const before = await scrape();
    expect(metricValue(before, 'gateway_requests_total', 'model="unauthenticated",status="401"')).toBe(0);
    const refused = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer gk-not-a-real-key-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(refused.status).toBe(401);
    const unknownModel = await h
      .openaiClient(key)
      .chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error as { status: number });
    expect(unknownModel).toMatchObject({ status: 400 });
    const text = await scrape();
    expect(metricValue(text, 'gateway_requests_total', 'model="unauthenticated",status="401"')).toBe(1);
    expect(metricValue(text, 'gateway_request_duration_seconds_count', 'model="unauthenticated"')).toBe(1);
    expect(metricValue(text, 'gateway_requests_total', 'model="unknown",status="401"')).toBe(0);
    expect(metricValue(text, 'gateway_requests_total', 'model="unknown",status="400"')).toBe(1);
    expect(metricValue(text, 'gateway_request_duration_seconds_count', 'model="unknown"')).toBe(1);
  });

  it('shows each deployment cooled down or not, and its failures in a row, from the first scrape', async () => {
    const series = (name: string, deployment: string) => `${name}{model="ha-model",deployment="${deployment}"}`;
    const read = (text: string, name: string, deployment: string): number | undefined => {
      const line = text.split('\n').find((entry) => entry.startsWith(`${series(name, deployment)} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    const before = await scrape();
    for (const deployment of ['ha-primary', 'ha-secondary']) {
      expect(read(before, 'gateway_deployment_cooled_down', deployment)).toBe(0);
      expect(read(before, 'gateway_deployment_consecutive_failures', deployment)).toBe(0);
    }
    // The primary fails once (a cooldown, after one failure here); the secondary answers.
    h.openai.setNext({ status: 500 });
    await h
      .openaiClient(key)
      .chat.completions.create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] });
    const after = await scrape();
    expect(read(after, 'gateway_deployment_cooled_down', 'ha-primary')).toBe(1);
    expect(read(after, 'gateway_deployment_consecutive_failures', 'ha-primary')).toBe(1);
    expect(read(after, 'gateway_deployment_cooled_down', 'ha-secondary')).toBe(0);
    expect(read(after, 'gateway_deployment_consecutive_failures', 'ha-secondary')).toBe(0);
    expect(after).toContain('# TYPE gateway_deployment_cooled_down gauge');
  });

  it('drops the series of a deployment a save removed', async () => {
    const kept = haDeployments(h.openai.url, h.openaiSecondary.url).filter(
      (deployment) => deployment.id !== 'ha-primary',
    );
    const replaced = await h.admin('PUT', '/internal/deployments', { deployments: kept });
    expect(replaced.status).toBe(200);
    const text = await scrape();
    expect(text).not.toMatch(/gateway_deployment_cooled_down\{[^}]*deployment="ha-primary"/);
    expect(text).toMatch(/gateway_deployment_cooled_down\{model="ha-model",deployment="ha-secondary"\} 0/);
  });
});
