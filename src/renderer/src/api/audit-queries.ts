import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { auditListSchema, type AuditEvent } from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';

/** Events per page of the Audit screen: a screenful and some, "Load older" reads the next. */
const AUDIT_PAGE_SIZE = 50;

/** Events of one target read at most to tell what a key's fields held before a change (keys change rarely). */
const TARGET_HISTORY_LIMIT = 1000;

/** What the Audit screen narrows the trail to, as `GET /internal/audit` takes it (empty: no filter). */
export interface AuditFilter {
  /** One action, or a family such as `api_key.*`. */
  readonly action: string;
  readonly target: string;
  /** ISO times; `until` excluded. */
  readonly since: string;
  readonly until: string;
}

/** The audit trail, newest first, one page at a time (`before` cursor: the last id seen). */
export function useAuditEvents(filter: AuditFilter) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ['gateway', 'audit', filter.action, filter.target, filter.since, filter.until] as const,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.request('gateway', '/internal/audit', {
        query: { limit: AUDIT_PAGE_SIZE, before: pageParam || undefined, ...filter },
        schema: auditListSchema,
        signal,
      }),
    getNextPageParam: (page) => page.next_cursor,
  });
}

/**
 * The events on `event`'s target recorded before it, newest first: a key's update records only the new
 * values, so what the fields held before is read from the key's earlier events (its issue and updates).
 */
export function useEarlierEvents(event: AuditEvent, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['gateway', 'audit', '#earlier', event.target, event.id] as const,
    enabled: enabled && event.target !== null,
    staleTime: Infinity,
    queryFn: ({ signal }) =>
      api.request('gateway', '/internal/audit', {
        query: { limit: TARGET_HISTORY_LIMIT, before: event.id, target: event.target ?? undefined },
        schema: auditListSchema,
        signal,
      }),
  });
}
