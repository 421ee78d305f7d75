import { describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../src/shared/gateway-api.js';
import { niceScale, toSeries, totalsByGroup } from '../../src/renderer/src/lib/usage-series.js';

const point = (bucket: string, group: string, requests: number) => ({
  bucket_start: bucket,
  group,
  label: null,
  requests,
  errors: 0,
  prompt_tokens: requests * 10,
  completion_tokens: requests * 5,
  total_tokens: requests * 15,
  cache_read_prompt_tokens: 0,
  cache_write_prompt_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: 0,
  avg_latency_ms: 100,
});

const usage: UsageResponse = {
  group_by: 'model',
  bucket: 'hour',
  since: '2026-01-01T00:30:00.000Z',
  until: '2026-01-01T03:10:00.000Z',
  data: [
    point('2026-01-01T00:00:00.000Z', 'a', 2),
    point('2026-01-01T02:00:00.000Z', 'a', 1),
    point('2026-01-01T02:00:00.000Z', 'b', 5),
  ],
  totals: {
    requests: 8,
    errors: 0,
    prompt_tokens: 80,
    completion_tokens: 40,
    total_tokens: 120,
    cache_read_prompt_tokens: 0,
    cache_write_prompt_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: 0,
    avg_latency_ms: 100,
  },
};

describe('usage series', () => {
  it('puts points on a regular axis with zeros in the gaps, biggest series first', () => {
    const set = toSeries(usage, 'requests');
    expect(set.buckets).toHaveLength(4);
    expect(set.series.map((series) => [series.key, series.values])).toEqual([
      ['b', [0, 0, 5, 0]],
      ['a', [2, 0, 1, 0]],
    ]);
  });

  it('totals per group', () => {
    expect(totalsByGroup(usage).map((row) => [row.key, row.requests, row.tokens])).toEqual([
      ['b', 5, 75],
      ['a', 3, 45],
    ]);
  });

  it('sums cache hits and savings, and averages latency over the upstream calls only', () => {
    // Two buckets of one model: 4 requests, 3 of them hits (their latency is not in avg_latency_ms), then 2 calls.
    const hits = {
      ...point('2026-01-01T00:00:00.000Z', 'a', 4),
      avg_latency_ms: 300,
      cache_hits: 3,
      saved_cost_usd: 0.5,
    };
    const calls = {
      ...point('2026-01-01T01:00:00.000Z', 'a', 2),
      avg_latency_ms: 150,
      cache_hits: 0,
      saved_cost_usd: 0,
    };
    const [row] = totalsByGroup({ ...usage, data: [hits, calls] });
    expect(row).toMatchObject({ requests: 6, cacheHits: 3, savedCost: 0.5 });
    // (300 x 1 + 150 x 2) / 3 upstream calls; weighting by requests would read 250.
    expect(row!.latency).toBe(200);
  });

  it('names the group of requests without a value by the grouping', () => {
    const byUser: UsageResponse = {
      ...usage,
      group_by: 'user',
      data: [
        point('2026-01-01T00:00:00.000Z', 'ada', 2),
        { ...point('2026-01-01T01:00:00.000Z', 'x', 3), group: null },
      ],
    };
    expect(totalsByGroup(byUser).map((row) => row.label)).toEqual(['No user', 'ada']);
    expect(toSeries({ ...byUser, group_by: 'team' }, 'requests').series.map((series) => series.label)).toEqual([
      'No team',
      'ada',
    ]);
    const named = { ...point('2026-01-01T00:00:00.000Z', 'key_1', 1), label: 'ci-bot' };
    expect(totalsByGroup({ ...usage, group_by: 'key', data: [named] })[0]!.label).toBe('ci-bot');
  });

  it('picks round axis steps, whole ones for counts', () => {
    expect(niceScale(0, true)).toEqual({ max: 1, step: 1 });
    expect(niceScale(3, true)).toEqual({ max: 3, step: 1 });
    expect(niceScale(13, true)).toEqual({ max: 15, step: 5 });
    expect(niceScale(240, true)).toEqual({ max: 250, step: 50 });
    expect(niceScale(0.003, false)).toEqual({ max: 0.003, step: 0.001 });
    expect(niceScale(0, false)).toEqual({ max: 1, step: 0.25 });
  });
});
