import { spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentLabel, GatewayMetrics } from '../../src/server/gateway/metrics/gateway-metrics.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The series beside the interface document's: what requests cost by model, upstream failures and
 * latency by deployment, retries, fallbacks and the requests in flight; label values bounded by what
 * admins configure, and the exposition one Prometheus reads.
 */
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;

function promtoolComplaints(text: string): string[] {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    .concat(result.status === 0 ? [] : [`status ${result.status}`]);
}

/** A sample's value in exposition text, or undefined when the series is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the cost counter over a running gateway', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h?.close());

  it('adds what the usage rows charge, by model, from 0', async () => {
    const scrape = async () => (await fetch(`${h.url}/metrics`)).text();
    expect(sample(await scrape(), 'gateway_cost_usd_total{model="gpt-4o-mini"}')).toBe(0);
    const { key } = await h.issueKey();
    const client = h.openaiClient(key);
    for (let i = 0; i < 2; i += 1)
      await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: `hello ${i}` }],
      });
    const rows = await h.usageRows('limit=2');
    const charged = rows.reduce((sum: number, row: { cost_usd: number }) => sum + row.cost_usd, 0);
    expect(charged).toBeGreaterThan(0);
    const text = await scrape();
    expect(sample(text, 'gateway_cost_usd_total{model="gpt-4o-mini"}')).toBeCloseTo(charged, 12);
    expect(text).toContain('# TYPE gateway_requests_in_flight gauge');
    if (promtool) expect(promtoolComplaints(text)).toEqual([]);
  });
});

describe('the upstream series by deployment', () => {
  const allowList = { isAllowed: (model: string) => model === 'gpt-4o-mini' };

  it('names a configured deployment or an allowed model, never a name a client chose', () => {
    expect(deploymentLabel({ id: 'ha-primary', explicit: true }, allowList)).toBe('ha-primary');
    expect(deploymentLabel({ id: 'gpt-4o-mini', explicit: false }, allowList)).toBe('gpt-4o-mini');
    expect(deploymentLabel({ id: 'my-own-model-9000', explicit: false }, allowList)).toBe('unknown');
    expect(deploymentLabel(undefined, allowList)).toBe('unknown');
  });

  it('counts failures, latency, retries and fallbacks per deployment, every series from 0, in valid text', async () => {
    const registry = new Registry();
    let inFlight = 3;
    const metrics = new GatewayMetrics(registry, () => ['ha-model'], {
      deploymentsOf: () => ['ha-primary', 'ha-secondary'],
      inFlight: () => inFlight,
    });
    let text = await registry.metrics();
    for (const deployment of ['ha-primary', 'ha-secondary']) {
      for (const phase of ['before_answer', 'mid_stream'])
        expect(
          sample(
            text,
            `gateway_upstream_failures_total{model="ha-model",deployment="${deployment}",phase="${phase}",reason="5xx"}`,
          ),
        ).toBe(0);
      expect(sample(text, `gateway_upstream_retries_total{model="ha-model",deployment="${deployment}"}`)).toBe(0);
      expect(sample(text, `gateway_upstream_fallbacks_total{model="ha-model",deployment="${deployment}"}`)).toBe(0);
    }
    expect(sample(text, 'gateway_requests_in_flight')).toBe(3);

    metrics.upstreamFailure('ha-model', 'before_answer', 'ha-primary', '5xx');
    metrics.upstreamRetry('ha-model', 'ha-primary');
    metrics.upstreamFailure('ha-model', 'before_answer', 'ha-primary', '5xx');
    metrics.upstreamFallback('ha-model', 'ha-primary');
    metrics.observeUpstream('ha-model', 'ha-secondary', 0.2);
    metrics.observeRequest('ha-model', 200, 0.3, 10, 5, 0.0125);
    inFlight = 0;
    text = await registry.metrics();
    expect(
      sample(
        text,
        'gateway_upstream_failures_total{model="ha-model",deployment="ha-primary",phase="before_answer",reason="5xx"}',
      ),
    ).toBe(2);
    expect(sample(text, 'gateway_upstream_retries_total{model="ha-model",deployment="ha-primary"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_fallbacks_total{model="ha-model",deployment="ha-primary"}')).toBe(1);
    expect(
      sample(text, 'gateway_upstream_duration_seconds_bucket{le="0.25",model="ha-model",deployment="ha-secondary"}'),
    ).toBe(1);
    expect(sample(text, 'gateway_upstream_duration_seconds_count{model="ha-model",deployment="ha-secondary"}')).toBe(1);
    expect(sample(text, 'gateway_cost_usd_total{model="ha-model"}')).toBe(0.0125);
    expect(sample(text, 'gateway_requests_in_flight')).toBe(0);
    if (promtool) expect(promtoolComplaints(text)).toEqual([]);
  });
});
