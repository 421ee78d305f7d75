import { describe, expect, it } from 'vitest';
import type { UsagePoint, UsageResponse } from '../../src/shared/gateway-api.js';
import { MAX_SERIES, seriesColours, toSeries, type Metric } from '../../src/renderer/src/lib/usage-series.js';

const point = (group: string, requests: number, tokens: number, cost: number, errors: number): UsagePoint => ({
  bucket_start: '2026-01-01T01:00:00.000Z',
  group,
  label: null,
  requests,
  errors,
  prompt_tokens: tokens,
  completion_tokens: 0,
  total_tokens: tokens,
  cache_read_prompt_tokens: 0,
  cache_write_prompt_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: cost,
  avg_latency_ms: 100,
});

const answer = (data: UsagePoint[]): UsageResponse => ({
  group_by: 'model',
  bucket: 'hour',
  since: '2026-01-01T00:00:00.000Z',
  until: '2026-01-01T02:00:00.000Z',
  data,
  totals: {
    requests: 0,
    errors: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cache_read_prompt_tokens: 0,
    cache_write_prompt_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: 0,
    avg_latency_ms: null,
  },
});

const METRICS: readonly Metric[] = ['requests', 'total_tokens', 'cost_usd', 'errors'];

const colourIn = (usage: UsageResponse, metric: Metric): Record<string, number> =>
  Object.fromEntries(toSeries(usage, metric).series.map((series) => [series.key, series.colour]));

describe('usage series colours', () => {
  it('gives a group the same colour in every chart, whatever each chart ranks first', () => {
    // Busiest by requests, but the cheapest, the fewest tokens and no errors.
    const usage = answer([
      point('small-model', 100, 1_000, 0.01, 0),
      point('big-model', 10, 90_000, 4, 3),
      point('embed-model', 50, 5_000, 0.1, 7),
    ]);
    const expected = { 'small-model': 1, 'embed-model': 2, 'big-model': 3 };
    for (const metric of METRICS) expect(colourIn(usage, metric), metric).toEqual(expected);
    expect(Object.fromEntries(seriesColours(usage))).toEqual(expected);
  });

  it('keeps the colours across metrics when the groups outnumber the palette; the rest share "others"', () => {
    const groups = Array.from({ length: MAX_SERIES + 3 }, (_, index) => `m${index}`);
    // Requests fall with the index, tokens and cost rise with it: each chart alone would order them oppositely.
    const usage = answer(groups.map((group, index) => point(group, 100 - index, 10 * (index + 1), index, index % 3)));
    const byMetric = METRICS.map((metric) => colourIn(usage, metric));
    for (const colours of byMetric) expect(colours).toEqual(byMetric[0]);
    expect(byMetric[0]).toMatchObject({ m0: 1, m1: 2, m5: MAX_SERIES - 1, '#other': MAX_SERIES });
    expect(seriesColours(usage).get(`m${MAX_SERIES + 2}`)).toBe(MAX_SERIES);
  });
});
