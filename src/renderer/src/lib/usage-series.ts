import type { UsagePoint, UsageResponse } from '../../../shared/gateway-api.js';

/** Bucket sizes of the usage API, in milliseconds. */
export const BUCKET_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The numeric fields a chart can plot. */
export type Metric = 'requests' | 'total_tokens' | 'cost_usd' | 'errors';

/** One group's values per bucket. */
export interface Series {
  readonly key: string;
  readonly label: string;
  readonly values: readonly number[];
  readonly total: number;
  /** Its colour, 1 to {@link MAX_SERIES}: the same for a group in every chart of one usage answer. */
  readonly colour: number;
}

/** Buckets from `since` to `until` (floored to the bucket), and each group's values, busiest first. */
export interface SeriesSet {
  readonly buckets: readonly number[];
  readonly series: readonly Series[];
}

/** Most series drawn; the rest are summed into "Other". */
export const MAX_SERIES = 7;

function groupKey(point: UsagePoint): string {
  return point.group ?? '(none)';
}

/**
 * The group of requests without a value, in the grouping's words: requests made with the master key
 * or a provider's own key, or refused before a key was known, have no gateway key; keys issued without
 * a user or team have none; a request refused before it named a model (no key, a malformed body) has no
 * model (one refused for the model it named counts under that name, as the traffic view shows it); a
 * request refused before it was routed has no deployment or provider.
 */
const NO_GROUP: Readonly<Record<UsageResponse['group_by'], string>> = {
  model: 'No model',
  key: 'No gateway key',
  user: 'No user',
  team: 'No team',
  deployment: 'No deployment',
  provider: 'No provider',
  none: 'All requests',
};

function groupLabel(usage: UsageResponse, point: UsagePoint): string {
  return point.group === null ? NO_GROUP[usage.group_by] : (point.label ?? point.group);
}

/**
 * The colour of each group: by its rank in requests, the same whichever metric a chart plots, so one
 * model or key has one colour across the screen. Groups past the palette share the "others" colour.
 */
export function seriesColours(usage: UsageResponse): ReadonlyMap<string, number> {
  const ranked = totalsByGroup(usage).map((row) => row.key);
  const own = ranked.length <= MAX_SERIES ? MAX_SERIES : MAX_SERIES - 1;
  return new Map(ranked.map((key, index) => [key, Math.min(index, own) + 1]));
}

/**
 * Lays usage points out on a regular time axis (empty buckets are zero), one series per group, in
 * the order and colours of {@link seriesColours}; past the palette, the rest are summed into "others".
 */
export function toSeries(usage: UsageResponse, metric: Metric): SeriesSet {
  const size = BUCKET_MS[usage.bucket];
  const start = Math.floor(new Date(usage.since).getTime() / size) * size;
  const end = new Date(usage.until).getTime();
  const count = Math.max(1, Math.min(2000, Math.floor((end - start) / size) + 1));
  const buckets = Array.from({ length: count }, (_, index) => start + index * size);
  const byGroup = new Map<string, { label: string; values: number[] }>();
  for (const point of usage.data) {
    const index = Math.floor((new Date(point.bucket_start).getTime() - start) / size);
    if (index < 0 || index >= count) continue;
    const key = groupKey(point);
    let entry = byGroup.get(key);
    if (!entry)
      byGroup.set(key, (entry = { label: groupLabel(usage, point), values: new Array<number>(count).fill(0) }));
    entry.values[index] = (entry.values[index] ?? 0) + point[metric];
  }
  const colours = seriesColours(usage);
  const all = [...colours.keys()].flatMap((key) => {
    const entry = byGroup.get(key);
    if (!entry) return [];
    const total = entry.values.reduce((sum, value) => sum + value, 0);
    return [{ key, label: entry.label, values: entry.values, total, colour: colours.get(key)! }];
  });
  if (all.length <= MAX_SERIES) return { buckets, series: all };
  const rest = all.slice(MAX_SERIES - 1);
  const other = rest.reduce<number[]>(
    (sum, entry) => sum.map((value, index) => value + (entry.values[index] ?? 0)),
    new Array<number>(count).fill(0),
  );
  return {
    buckets,
    series: [
      ...all.slice(0, MAX_SERIES - 1),
      {
        key: '#other',
        label: `${rest.length} others`,
        values: other,
        total: other.reduce((a, b) => a + b, 0),
        colour: MAX_SERIES,
      },
    ],
  };
}

/** Each bucket's total over all series: the height of its stacked bar. */
export function bucketTotals(data: SeriesSet): number[] {
  return data.buckets.map((_, index) => data.series.reduce((sum, series) => sum + (series.values[index] ?? 0), 0));
}

/** One group's totals over the range, as the Usage screen's table shows them. */
export interface UsageGroupTotals {
  key: string;
  label: string;
  requests: number;
  tokens: number;
  cost: number;
  errors: number;
  /** Of `requests`, those the response cache answered. */
  cacheHits: number;
  /** What those hits' kept answers had cost: spend the cache saved. */
  savedCost: number;
  /** Average over the upstream calls (hits left out); null when none reported one. */
  latency: number | null;
}

/** Per-group totals for the table under the charts. */
export function totalsByGroup(usage: UsageResponse): UsageGroupTotals[] {
  const groups = new Map<string, UsageGroupTotals & { latencySum: number; latencyCount: number }>();
  for (const point of usage.data) {
    const key = groupKey(point);
    let entry = groups.get(key);
    if (!entry) {
      const label = groupLabel(usage, point);
      const zero = { requests: 0, tokens: 0, cost: 0, errors: 0, cacheHits: 0, savedCost: 0, latency: null };
      groups.set(key, (entry = { key, label, ...zero, latencySum: 0, latencyCount: 0 }));
    }
    entry.requests += point.requests;
    entry.tokens += point.total_tokens;
    entry.cost += point.cost_usd;
    entry.errors += point.errors;
    entry.cacheHits += point.cache_hits ?? 0;
    entry.savedCost += point.saved_cost_usd ?? 0;
    // The average is over the requests that called an upstream: cache hits are left out of it.
    const upstreamCalls = point.requests - (point.cache_hits ?? 0);
    if (point.avg_latency_ms !== null && upstreamCalls > 0) {
      entry.latencySum += point.avg_latency_ms * upstreamCalls;
      entry.latencyCount += upstreamCalls;
    }
  }
  return [...groups.values()]
    .map(({ latencySum, latencyCount, ...rest }) => ({
      ...rest,
      latency: latencyCount ? latencySum / latencyCount : null,
    }))
    .sort((a, b) => b.requests - a.requests);
}

/** A chart axis: a round maximum and the step between grid lines. */
export interface Scale {
  readonly max: number;
  readonly step: number;
}

/** At most five round steps (1, 2, 2.5, 5 × 10ⁿ) covering `value`; counts never get fractional steps. */
export function niceScale(value: number, integer: boolean): Scale {
  if (!(value > 0)) return integer ? { max: 1, step: 1 } : { max: 1, step: 0.25 };
  const raw = Math.max(value, integer ? 1 : Number.EPSILON) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? 10 * power;
  if (integer) step = Math.max(1, Math.ceil(step));
  const max = Math.max(step, Math.ceil(value / step - 1e-9) * step);
  return { max, step };
}
