import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The `_count` of one model's series of a histogram (all its deployments'), or 0 when it has none. */
function countOf(metrics: string, histogram: string, model: string): number {
  const series = new RegExp(`^${histogram}_count\\{model="${model}"[,}]`);
  const lines = metrics.split('\n').filter((l) => series.test(l));
  return lines.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/**
 * `gateway_request_duration_seconds` is every request to its last byte: cache hits, whole answers,
 * streams and token counts under one model. The provider's own latency and a stream's wait for its
 * first frame have their own histograms, which nothing else dilutes.
 */
describe('upstream latency and time to first token', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
    key = (await h.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => h?.close());

  it('counts whole answers and streams apart, and neither cache hits nor token counts', async () => {
    const openai = h.openaiClient(key);
    const request = { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user' as const, content: 'time me' }] };
    await openai.chat.completions.create(request);
    const hit = await openai.chat.completions.create(request).withResponse();
    expect(hit.response.headers.get('x-cache-hit')).toBe('true');
    for await (const chunk of await openai.chat.completions.create({ ...request, stream: true })) void chunk;
    const anthropic = h.anthropicClient(key);
    await anthropic.messages.countTokens({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'n' }] });
    await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'x' }],
    });

    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    // The cache hit and the stream are requests too.
    expect(countOf(metrics, 'gateway_request_duration_seconds', 'gpt-4o-mini')).toBe(3);
    expect(countOf(metrics, 'gateway_upstream_duration_seconds', 'gpt-4o-mini')).toBe(1);
    expect(countOf(metrics, 'gateway_time_to_first_token_seconds', 'gpt-4o-mini')).toBe(1);
    expect(countOf(metrics, 'gateway_request_duration_seconds', 'claude-opus-4-7')).toBe(2);
    expect(countOf(metrics, 'gateway_upstream_duration_seconds', 'claude-opus-4-7')).toBe(1);
    expect(metrics).toContain('# TYPE gateway_upstream_duration_seconds histogram');
    expect(metrics).toContain('# TYPE gateway_time_to_first_token_seconds histogram');
  });
});
