import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cachePurgeResultSchema,
  cacheViewSchema,
  type CachePurge,
  type CacheSettingsUpdate,
} from '../../../shared/cache-api.js';
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
