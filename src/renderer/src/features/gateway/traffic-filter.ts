import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { LIMIT_WORDS, limitWordOf } from '../../lib/limit-words.js';
import { policyStop } from './traffic-stages.js';

/** What the traffic table shows. */
export interface TrafficFilter {
  readonly text: string;
  /** `failed`: every request that did not succeed, a stream that failed after its 200 included. */
  readonly status: 'all' | 'ok' | 'failed' | 'client' | 'server';
  readonly model: string;
  readonly key: string;
}

/** No filtering. */
export const NO_FILTER: TrafficFilter = { text: '', status: 'all', model: '', key: '' };

/**
 * Whether a request failed: refused or failed with its status, or a stream that failed after its
 * 200 was sent (the error then only reaches the client in the stream, as usage counts it).
 */
export function failed(event: TrafficEvent): boolean {
  return event.status >= 400 || event.error_type !== null;
}

/**
 * Words for what the gateway did to a request, which its row only hints at, so the text filter finds
 * "why was it refused / what happened" across requests: the limit that refused it (`team_daily`,
 * "token budget per day"), `pii` and the entities found, `cached`, and `stopped` for an answer the
 * content policy stopped.
 */
export function outcomeWords(event: TrafficEvent): string[] {
  const words: string[] = [];
  const stop = event.status >= 400 ? policyStop(event) : undefined;
  if (stop?.at === 'limits' && stop.limitType) words.push(stop.limitType, LIMIT_WORDS[limitWordOf(stop.limitType)]);
  const entities = Object.keys(event.guardrails?.pii_entities ?? {});
  if (entities.length) words.push('pii', ...entities);
  if (event.cached) words.push('cached');
  if (event.guardrails?.answer_stopped) words.push('stopped');
  return words;
}

/** True when an event passes the filter. */
export function matches(event: TrafficEvent, filter: TrafficFilter): boolean {
  if (filter.status === 'ok' && failed(event)) return false;
  if (filter.status === 'failed' && !failed(event)) return false;
  if (filter.status === 'client' && (event.status < 400 || event.status >= 500)) return false;
  if (filter.status === 'server' && event.status < 500) return false;
  if (filter.model && event.model !== filter.model && event.requested_model !== filter.model) return false;
  if (filter.key && event.key_id !== filter.key) return false;
  if (filter.text) {
    const needle = filter.text.toLowerCase();
    const haystack = [
      event.request_id,
      event.path,
      event.model,
      event.requested_model,
      event.deployment,
      event.key_name,
      event.user,
      event.team,
      event.error_type,
      String(event.status),
      ...outcomeWords(event),
    ];
    if (!haystack.some((value) => value?.toLowerCase().includes(needle))) return false;
  }
  return true;
}

const STATUSES: readonly TrafficFilter['status'][] = ['all', 'ok', 'failed', 'client', 'server'];

/** The filter an address asks for (`q`, `status`, `model`, `key`); what it does not say, or says wrongly, is no filter. */
export function filterFromSearch(params: URLSearchParams): TrafficFilter {
  const status = STATUSES.find((value) => value === params.get('status')) ?? 'all';
  return { text: params.get('q') ?? '', status, model: params.get('model') ?? '', key: params.get('key') ?? '' };
}

/** The address values of a filter (no filter leaves them out), for a link that shows the same requests. */
export function filterToSearch(filter: TrafficFilter): Readonly<Record<string, string | undefined>> {
  return {
    q: filter.text || undefined,
    status: filter.status === 'all' ? undefined : filter.status,
    model: filter.model || undefined,
    key: filter.key || undefined,
  };
}
