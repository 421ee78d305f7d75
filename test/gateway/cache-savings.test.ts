import type { default as OpenAI } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cacheViewSchema } from '../../src/shared/cache-api.js';
import { usageLogsSchema, usageResponseSchema } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The harness prices gpt-4o-mini at $0.15 in and $0.60 out per million tokens. */
const KEPT_USAGE = { prompt_tokens: 1000, completion_tokens: 300 };
const KEPT_COST = (1000 * 0.15 + 300 * 0.6) / 1e6;

/**
 * What the response cache saved: a hit's usage row keeps the kept answer's usage and what it costs
 * (billing stays 0), the usage aggregates add hits and savings up and leave hits out of latency,
 * every answer the cache considered says what it did in `x-gatehouse-cache`, and the metrics count
 * hits, misses and savings per model, and the answers not kept by why.
 */
describe('cache savings', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true, ttl_seconds: 600 } });
    const key = await h.issueKey({ name: 'savings', scopes: ['chat'] });
    keyId = key.id;
    secret = key.key;
    client = h.openaiClient(secret);
  });
  afterAll(async () => h?.close());
  beforeEach(() => {
    h.openai.setDefault({ reply: { text: 'kept answer', usage: KEPT_USAGE } });
  });

  const ask = (content: string, headers: Record<string, string> = {}) =>
    client.chat.completions
      .create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] }, { headers })
      .withResponse();

  const rowsOf = async (): Promise<ReturnType<typeof usageLogsSchema.parse>['data']> =>
    usageLogsSchema.parse((await h.admin('GET', `/internal/usage/logs?key_id=${keyId}&limit=1000`)).body).data;

  const metrics = async (): Promise<string> => (await fetch(`${h.url}/metrics`)).text();
  const metric = (text: string, series: string): number => {
    const escaped = series.replace(/[{}"/]/g, (c) => `\\${c}`);
    return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  };

  it("keeps on a hit's row what the kept answer cost, while the hit is billed nothing", async () => {
    const miss = await ask('savings row');
    const hit = await ask('savings row');
    expect(hit.data.usage).toMatchObject(KEPT_USAGE);
    const rows = await rowsOf();
    const row = (id: string | null) => rows.find((entry) => entry.request_id === id)!;
    expect(row(miss.request_id)).toMatchObject({
      cached: false,
      cache_status: 'miss',
      prompt_tokens: 1000,
      saved_prompt_tokens: null,
      saved_completion_tokens: null,
      saved_cost_usd: null,
      cache_age_s: null,
    });
    expect(row(hit.request_id)).toMatchObject({
      cached: true,
      cache_status: 'hit',
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: 0,
      saved_prompt_tokens: 1000,
      saved_completion_tokens: 300,
      cache_age_s: 0,
    });
    expect(row(hit.request_id).saved_cost_usd).toBeCloseTo(KEPT_COST, 12);
  });

  it('adds hits, misses and savings up in /internal/usage, and leaves hits out of the average latency', async () => {
    await ask('savings totals');
    await ask('savings totals');
    await ask('savings totals');
    const rows = await rowsOf();
    const read = async (groupBy: string) =>
      usageResponseSchema.parse(
        (await h.admin('GET', `/internal/usage?group_by=${groupBy}&bucket=day&key_id=${keyId}`)).body,
      );
    const hits = rows.filter((row) => row.cached);
    const upstream = rows.filter((row) => !row.cached);
    const byModel = await read('model');
    const point = byModel.data.find((p) => p.group === 'gpt-4o-mini')!;
    for (const figures of [point, byModel.totals]) {
      expect(figures).toMatchObject({
        requests: rows.length,
        cache_hits: hits.length,
        cache_misses: upstream.length,
        saved_tokens: hits.length * 1300,
      });
      expect(figures.saved_cost_usd).toBeCloseTo(hits.length * KEPT_COST, 12);
      const upstreamAverage = upstream.reduce((sum, row) => sum + row.latency_ms, 0) / upstream.length;
      expect(figures.avg_latency_ms).toBeCloseTo(upstreamAverage, 1);
    }
    // By key too: which key the cache served.
    const byKey = await read('key');
    expect(byKey.data.find((p) => p.group === keyId)).toMatchObject({ cache_hits: hits.length });
  });

  it('says what the cache did in x-gatehouse-cache on every answer it considered, and the age of a hit', async () => {
    const miss = await ask('savings headers');
    expect(miss.response.headers.get('x-gatehouse-cache')).toBe('miss');
    expect(miss.response.headers.get('x-cache-hit')).toBe('false');
    expect(miss.response.headers.get('age')).toBeNull();
    const hit = await ask('savings headers');
    expect(hit.response.headers.get('x-gatehouse-cache')).toBe('hit');
    expect(hit.response.headers.get('x-cache-hit')).toBe('true');
    expect(hit.response.headers.get('age')).toMatch(/^\d+$/);
    const refresh = await ask('savings headers', { 'cache-control': 'no-cache' });
    expect(refresh.response.headers.get('x-gatehouse-cache')).toBe('refresh');
    const bypass = await ask('savings headers', { 'cache-control': 'no-store' });
    expect(bypass.response.headers.get('x-gatehouse-cache')).toBe('bypass');
    // Not considered (sampled): no header at all.
    const sampled = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'savings headers' }] })
      .withResponse();
    expect(sampled.response.headers.get('x-gatehouse-cache')).toBeNull();
    const rows = await rowsOf();
    const status = (id: string | null) => rows.find((row) => row.request_id === id)?.cache_status;
    expect([miss, hit, refresh, bypass, sampled].map((answer) => status(answer.request_id))).toEqual([
      'miss',
      'hit',
      'refresh',
      'bypass',
      null,
    ]);
  });

  it('keeps what a streamed hit saved', async () => {
    const stream = async () => {
      const chunks = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'savings stream' }],
      });
      for await (const chunk of chunks) void chunk;
    };
    await stream();
    await stream();
    const [hit] = (await rowsOf()).filter((row) => row.stream && row.cached);
    expect(hit).toMatchObject({ saved_prompt_tokens: 1000, saved_completion_tokens: 300, cost_usd: 0 });
  });

  it('counts hits, misses and savings per model in the metrics', async () => {
    const before = await metrics();
    await ask('savings metrics');
    await ask('savings metrics');
    const after = await metrics();
    const change = (series: string) => metric(after, series) - metric(before, series);
    expect(change('gateway_cache_hits_total{model="gpt-4o-mini"}')).toBe(1);
    expect(change('gateway_cache_misses_total{model="gpt-4o-mini"}')).toBe(1);
    expect(change('gateway_cache_saved_usd_total{model="gpt-4o-mini"}')).toBeCloseTo(KEPT_COST, 12);
  });

  it('counts an answer too large to keep, on the Cache API and in the metrics', async () => {
    const stats = async () => cacheViewSchema.parse((await h.admin('GET', '/internal/cache')).body).stats;
    const before = await stats();
    const beforeMetrics = await metrics();
    expect((await h.admin('PUT', '/internal/cache', { max_entry_bytes: 100 })).status).toBe(200);
    try {
      await ask('savings too large');
      await ask('savings too large');
    } finally {
      await h.admin('PUT', '/internal/cache', { reset: true });
    }
    const after = await stats();
    expect(after.not_kept.too_large - before.not_kept.too_large).toBe(2);
    expect(after.stores - before.stores).toBe(0);
    const series = 'gateway_cache_not_kept_total{reason="too_large"}';
    expect(metric(await metrics(), series) - metric(beforeMetrics, series)).toBe(2);
  });

  it('counts a stream its client left as not kept (client_left)', async () => {
    const stats = async () => cacheViewSchema.parse((await h.admin('GET', '/internal/cache')).body).stats;
    const before = await stats();
    h.openai.setDefault({ reply: { text: 'a b c d e f g h', usage: KEPT_USAGE }, frameDelayMs: 200 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', temperature: 0, stream: true, messages: [{ role: 'user', content: 'savings left' }] },
      { signal: controller.signal },
    );
    try {
      for await (const chunk of stream) {
        void chunk;
        controller.abort();
      }
    } catch {
      // The SDK may end the loop with an abort error, or quietly.
    }
    await expect.poll(async () => (await stats()).not_kept.client_left - before.not_kept.client_left).toBe(1);
    expect((await stats()).stores).toBe(before.stores);
  });

  it('counts an answer whose provider call failed as not kept (error)', async () => {
    const stats = async () => cacheViewSchema.parse((await h.admin('GET', '/internal/cache')).body).stats;
    const before = await stats();
    h.openai.setDefault({ status: 500 });
    await expect(ask('savings failure')).rejects.toThrow();
    const after = await stats();
    expect(after.not_kept.error - before.not_kept.error).toBe(1);
  });
});
