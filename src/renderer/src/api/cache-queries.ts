import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cachePurgeResultSchema,
  cacheViewSchema,
  type CachePurge,
  type CacheSettingsUpdate,
} from '../../../shared/cache-api.js';
import { usageResponseSchema, type UsageQuery, type UsageResponse } from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

/** The response cache's settings, where they came from, and its counters. */
export function useCache() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.cache,
    queryFn: ({ signal }) => api.request('gateway', '/internal/cache', { schema: cacheViewSchema, signal }),
  });
}

/** Changes cache settings (omitted fields keep their value), or returns to the file's with `reset`. */
export function useUpdateCache() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CacheSettingsUpdate) =>
      api.request('gateway', '/internal/cache', { method: 'PUT', body, schema: cacheViewSchema }),
    onSuccess: (data) => client.setQueryData(queryKeys.gateway.cache, data),
  });
}

/** Forgets kept answers (all, or a team's, a key's or a model's). */
export function usePurgeCache() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CachePurge) =>
      api.request('gateway', '/internal/cache/purge', { method: 'POST', body, schema: cachePurgeResultSchema }),
    // Done when the gateway answers; the cache's figures follow (a slow read must not hold the button).
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.gateway.cache }),
  });
}

/** The windows the Cache screen sums savings over, longest last (its top lists use the last). */
export const CACHE_SAVINGS_WINDOWS = [
  { label: 'Last hour', ms: 3_600_000, bucket: 'minute' },
  { label: 'Last 24 hours', ms: 86_400_000, bucket: 'hour' },
  { label: 'Last 7 days', ms: 7 * 86_400_000, bucket: 'day' },
] as const;

/** What the cache saved over one window, from the usage rows (so it survives restarts). */
export interface CacheSavingsWindow {
  readonly label: string;
  readonly hits: number;
  readonly misses: number;
  readonly savedTokens: number;
  readonly savedUsd: number;
}

/** One model's or key's share of the savings over the longest window. */
export interface CacheSaver {
  readonly group: string;
  readonly label: string;
  readonly hits: number;
  readonly savedUsd: number;
}

/** The savings per window, and the models and keys that saved most (by dollars) over the longest. */
export interface CacheSavings {
  readonly windows: readonly CacheSavingsWindow[];
  readonly topModels: readonly CacheSaver[];
  readonly topKeys: readonly CacheSaver[];
}

/** A grouping's points summed per group (a group spans several buckets), most dollars saved first, hits only. */
function topSavers(data: UsageResponse['data'], count: number): CacheSaver[] {
  const byGroup = new Map<string, CacheSaver>();
  for (const point of data) {
    if (point.group === null || !point.cache_hits) continue;
    const seen = byGroup.get(point.group);
    byGroup.set(point.group, {
      group: point.group,
      label: point.label ?? point.group,
      hits: (seen?.hits ?? 0) + point.cache_hits,
      savedUsd: (seen?.savedUsd ?? 0) + (point.saved_cost_usd ?? 0),
    });
  }
  return [...byGroup.values()].sort((a, b) => b.savedUsd - a.savedUsd || b.hits - a.hits).slice(0, count);
}

/**
 * What the response cache saved over the last hour, 24 hours and 7 days, and who saved most: read
 * from `/internal/usage` (the usage rows), so unlike the live counters it survives a restart. Under
 * the usage query key, so written rows refresh it as they refresh the Usage screen.
 */
export function useCacheSavings() {
  const api = useApi();
  return useQuery({
    queryKey: ['gateway', 'usage', 'cache-savings'] as const,
    refetchInterval: 15_000,
    queryFn: async ({ signal }): Promise<CacheSavings> => {
      const now = Date.now();
      const read = (groupBy: UsageQuery['group_by'], bucket: UsageQuery['bucket'], ms: number) =>
        api.request('gateway', '/internal/usage', {
          query: { group_by: groupBy, bucket, since: new Date(now - ms).toISOString() },
          schema: usageResponseSchema,
          signal,
        });
      const longest = CACHE_SAVINGS_WINDOWS[CACHE_SAVINGS_WINDOWS.length - 1];
      const [byModel, byKey, ...totals] = await Promise.all([
        read('model', longest.bucket, longest.ms),
        read('key', longest.bucket, longest.ms),
        ...CACHE_SAVINGS_WINDOWS.map((window) => read('none', window.bucket, window.ms)),
      ]);
      return {
        windows: CACHE_SAVINGS_WINDOWS.map((window, index) => {
          const sum = totals[index]!.totals;
          return {
            label: window.label,
            hits: sum.cache_hits ?? 0,
            misses: sum.cache_misses ?? 0,
            savedTokens: sum.saved_tokens ?? 0,
            savedUsd: sum.saved_cost_usd ?? 0,
          };
        }),
        topModels: topSavers(byModel.data, 5),
        topKeys: topSavers(byKey.data, 5),
      };
    },
  });
}
