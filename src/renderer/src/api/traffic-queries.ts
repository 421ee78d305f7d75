import { useQuery } from '@tanstack/react-query';
import { trafficEventSchema } from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';
import { ApiError } from './http.js';

/**
 * One request of the traffic buffer with its bodies (`GET /internal/traffic/<seq>`), read when its
 * drawer opens: the live list holds metadata only, so a page load never downloads every body. A
 * recorded request never changes, so it is read once; a 404 (the gateway's buffer has dropped it) is
 * final and not retried.
 */
export function useTrafficBodies(seq: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['gateway', 'traffic-bodies', seq] as const,
    queryFn: ({ signal }) => api.request('gateway', `/internal/traffic/${seq}`, { schema: trafficEventSchema, signal }),
    staleTime: Infinity,
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 2,
  });
}

/** Whether a failed read of a request's bodies means the gateway no longer keeps the request. */
export function bodiesDropped(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
