import { useQuery } from '@tanstack/react-query';
import { useApi } from './api-context.js';
import type { Service } from './http.js';
import { queryKeys } from './query-keys.js';
import { readinessSchema } from '../../../shared/health-api.js';

/** A service as the shell shows it. */
export interface ServiceHealth {
  readonly state: 'ok' | 'unavailable' | 'unreachable';
  /** Named readiness checks and their states, when the service answered. */
  readonly checks: Readonly<Record<string, string>>;
}

/** Polls `/readyz` of a service (no credentials needed) every few seconds. */
export function useServiceHealth(service: Service) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.health(service),
    refetchInterval: 5000,
    retry: false,
    queryFn: async ({ signal }): Promise<ServiceHealth> => {
      let response: Response;
      try {
        response = await fetch(new URL('/readyz', api.baseUrl(service)), { signal, cache: 'no-store' });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        return { state: 'unreachable', checks: {} };
      }
      const body = readinessSchema.safeParse(await response.json().catch(() => ({})));
      const checks = body.success ? body.data.checks : {};
      return { state: response.ok ? 'ok' : 'unavailable', checks };
    },
  });
}
