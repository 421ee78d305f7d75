import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haDeployments, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Upstream failures and latency name the deployment that failed or answered, retries and fallbacks
 * are counted by the deployment they left or tried again, and the requests in flight are a gauge.
 */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('upstream metrics by deployment over a running gateway', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    // One retry on each deployment, so a failure of the primary is tried again before falling back.
    const deployments = haDeployments(h.openai.url, h.openaiSecondary.url).map((d) => ({ ...d, max_retries: 1 }));
    expect((await h.admin('PUT', '/internal/deployments', { deployments })).status).toBe(200);
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h?.close());

  const scrape = async () => (await fetch(`${h.url}/metrics`)).text();
  const ask = () =>
    h.openaiClient(key).chat.completions.create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] });

  it('counts a retry, a fallback and each failure under its deployment, from 0', async () => {
    const before = await scrape();
    for (const deployment of ['ha-primary', 'ha-secondary']) {
      expect(
        sample(
          before,
          `gateway_upstream_failures_total{model="ha-model",deployment="${deployment}",phase="before_answer",reason="5xx"}`,
        ),
      ).toBe(0);
      expect(sample(before, `gateway_upstream_retries_total{model="ha-model",deployment="${deployment}"}`)).toBe(0);
      expect(sample(before, `gateway_upstream_fallbacks_total{model="ha-model",deployment="${deployment}"}`)).toBe(0);
    }
    h.openai.setNext({ status: 500 }, { status: 500 });
    await ask();
    const text = await scrape();
    expect(
      sample(
        text,
        'gateway_upstream_failures_total{model="ha-model",deployment="ha-primary",phase="before_answer",reason="5xx"}',
      ),
    ).toBe(2);
    expect(sample(text, 'gateway_upstream_retries_total{model="ha-model",deployment="ha-primary"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_fallbacks_total{model="ha-model",deployment="ha-primary"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_duration_seconds_count{model="ha-model",deployment="ha-secondary"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_duration_seconds_count{model="ha-model",deployment="ha-primary"}')).toBe(
      undefined,
    );
  });

  it('shows the requests in flight', async () => {
    expect(sample(await scrape(), 'gateway_requests_in_flight')).toBe(0);
    h.openai.setNext({ delayMs: 1000 });
    const held = ask();
    await h.openai.waitForRequests(h.openai.requests.length + 1);
    expect(sample(await scrape(), 'gateway_requests_in_flight')).toBe(1);
    await held;
    expect(sample(await scrape(), 'gateway_requests_in_flight')).toBe(0);
  });
});
