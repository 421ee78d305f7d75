import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import {
  invalidateMessageSchema,
  trafficEventSchema,
  trafficGapSchema,
  trafficListSchema,
  type InvalidateMessage,
} from '../../../shared/gateway-api.js';
import { readSse } from '../lib/sse.js';
import { assertNever } from '../../../shared/assert-never.js';
import { whileShown } from '../lib/while-shown.js';
import { useApi } from './api-context.js';
import type { ApiClient } from './http.js';
import { queryKeys } from './query-keys.js';
import { TRAFFIC_CAPACITY, TrafficBuffer, type MissedRequests } from './traffic-buffer.js';

const buffers = new WeakMap<ApiClient, TrafficBuffer>();

/** The traffic buffer of this connection (one per signed-in client). */
export function useTrafficBuffer(): TrafficBuffer {
  const api = useApi();
  return useMemo(() => {
    let buffer = buffers.get(api);
    if (!buffer) buffers.set(api, (buffer = new TrafficBuffer()));
    return buffer;
  }, [api]);
}

/** The buffered events, re-rendering at most once per publish interval. */
export function useTrafficEvents(buffer: TrafficBuffer) {
  return useSyncExternalStore(buffer.subscribe, buffer.snapshot);
}

/** The requests the view missed because the gateway no longer kept them, until dismissed. */
export function useMissedTraffic(buffer: TrafficBuffer): MissedRequests | undefined {
  return useSyncExternalStore(buffer.subscribe, buffer.missed);
}

/** Whether the live stream is connected. */
export function useTrafficConnected(buffer: TrafficBuffer): boolean {
  return useSyncExternalStore(buffer.subscribe, () => buffer.connected);
}

/** How often at most the Audit screen's list refetches while admin changes (or embeddings) are audited. */
const AUDIT_REFRESH_MS = 1000;
const auditRefreshes = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

function refreshAuditSoon(client: QueryClient): void {
  if (auditRefreshes.has(client)) return;
  auditRefreshes.set(
    client,
    setTimeout(() => {
      auditRefreshes.delete(client);
      void client.invalidateQueries({ queryKey: ['gateway', 'audit'] });
    }, AUDIT_REFRESH_MS),
  );
}

function invalidate(client: QueryClient, message: InvalidateMessage): void {
  switch (message.topic) {
    case 'api-keys':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
      return;
    case 'users':
      // A user's limits show on their keys too.
      void client.invalidateQueries({ queryKey: queryKeys.gateway.users });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
      return;
    case 'teams':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.teams });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.users });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
      return;
    case 'models':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.models });
      return;
    case 'deployments':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.deployments });
      return;
    case 'usage':
      // Sent when usage rows are written; users' and teams' spend today is summed from them too.
      void client.invalidateQueries({ queryKey: ['gateway', 'usage'] });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.users });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.teams });
      return;
    case 'audit':
      // Every embeddings request is audited too: under load the trail refreshes once a second at most.
      refreshAuditSoon(client);
      return;
    case 'guardrails':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.guardrails });
      return;
    case 'cache':
      void client.invalidateQueries({ queryKey: queryKeys.gateway.cache });
      return;
    default:
      assertNever(message.topic);
  }
}

/** How long after a burst of traffic the limit views refresh: soon enough to watch, rare enough under load. */
const SPEND_REFRESH_MS = 1000;

/**
 * Finished requests move every meter (keys', users', teams'), today's spend, the usage series and
 * the response cache's counters, and the gateway sends no invalidation for them: refresh those views
 * once per burst of traffic instead (only the queries on screen refetch).
 */
function spendRefresher(client: QueryClient): { readonly touch: () => void; readonly stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    touch: () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
        void client.invalidateQueries({ queryKey: queryKeys.gateway.users });
        void client.invalidateQueries({ queryKey: queryKeys.gateway.teams });
        void client.invalidateQueries({ queryKey: ['gateway', 'usage'] });
        void client.invalidateQueries({ queryKey: queryKeys.gateway.cache });
      }, SPEND_REFRESH_MS);
    },
    stop: () => clearTimeout(timer),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Fills the buffer from the gateway's recent requests: at first all it keeps (up to what the view
 * holds), so a reload shows what was there before it; after a drop, what came meanwhile, counting
 * what the gateway had already dropped of that. Metadata only: the list needs no bodies (thousands of
 * requests' bodies are megabytes to download and hold), and the drawer reads one request's when opened.
 */
async function backfill(api: ApiClient, buffer: TrafficBuffer, signal: AbortSignal): Promise<void> {
  const after = buffer.lastSeq();
  const page = await api.request('gateway', '/internal/traffic', {
    query: { limit: after ? 10_000 : TRAFFIC_CAPACITY, after: after || undefined, bodies: 'false' },
    schema: trafficListSchema,
    signal,
  });
  buffer.setGatewayCapacity(page.capacity);
  buffer.addMissed(page.missed, after);
  buffer.add(page.data);
}

/**
 * Follows the gateway's admin event stream until the returned function is called: traffic events
 * go to the buffer, `gap` events count the requests the gateway dropped before they were sent,
 * `invalidate {topic, ids}` messages refresh the matching queries. Reconnects with back-off,
 * filling any gap from the recent-traffic endpoint.
 */
function followEvents(api: ApiClient, client: QueryClient, buffer: TrafficBuffer): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const spend = spendRefresher(client);
  const run = async (): Promise<void> => {
    let delay = 1000;
    while (!signal.aborted) {
      try {
        await backfill(api, buffer, signal);
        // Last-Event-ID: the stream resumes after what the backfill returned, leaving no gap.
        const last = buffer.lastSeq();
        // Without bodies, as the backfill: the drawer reads them by number.
        const response = await api.open(
          'gateway',
          '/internal/traffic/stream?bodies=false',
          signal,
          last ? { 'last-event-id': String(last) } : {},
        );
        buffer.setConnected(true);
        delay = 1000;
        for await (const message of readSse(response.body!)) {
          if (message.event === 'traffic') {
            const event = trafficEventSchema.safeParse(parseJson(message.data));
            if (event.success) {
              buffer.add([event.data]);
              spend.touch();
            }
          } else if (message.event === 'gap') {
            const gap = trafficGapSchema.safeParse(parseJson(message.data));
            if (gap.success) buffer.addMissed(gap.data.missed, gap.data.after);
          } else if (message.event === 'invalidate') {
            const parsed = invalidateMessageSchema.safeParse(parseJson(message.data));
            if (parsed.success) invalidate(client, parsed.data);
          }
        }
      } catch {
        // dropped or refused: retry below
      }
      buffer.setConnected(false);
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 15_000);
    }
  };
  void run();
  return () => {
    controller.abort();
    spend.stop();
  };
}

/**
 * Keeps one live connection to the gateway's admin event stream while signed in, closed while the
 * page is hidden in the back/forward cache and opened again (gap filled) when it is shown.
 */
export function useGatewayEvents(): void {
  const api = useApi();
  const client = useQueryClient();
  const buffer = useTrafficBuffer();
  useEffect(() => whileShown(() => followEvents(api, client, buffer)), [api, client, buffer]);
}
